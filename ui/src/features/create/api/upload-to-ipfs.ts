import { apiRequest } from '@/lib/api-client'

export type AssetUpload = {
  title: string
  description: string
  /** Category id. */
  nftCategory: string
  properties: { key: string; value: string }[]
  file: File
}

/**
 * POST /api/nft/ipfsupload (multipart: title, description, nftCategory, properties as JSON text,
 * file). The server stores the image and the ERC-721 metadata and answers the token URI
 * (`ipfs://<cid>` of the metadata) in `body.metaData`.
 */
export async function uploadToIpfs(upload: AssetUpload): Promise<string> {
  const form = new FormData()
  form.append('title', upload.title)
  form.append('description', upload.description)
  form.append('nftCategory', upload.nftCategory)
  form.append('properties', JSON.stringify(upload.properties))
  form.append('file', upload.file, upload.file.name)
  const { body } = await apiRequest<{ metaData: string }>('/api/nft/ipfsupload', { method: 'POST', formData: form })
  if (!body?.metaData) throw new Error('The upload answered no metadata URI')
  return body.metaData
}
