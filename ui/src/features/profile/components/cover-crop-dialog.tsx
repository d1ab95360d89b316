import { Button, Dialog, Portal } from '@chakra-ui/react'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import ReactCrop, { type PercentCrop, type PixelCrop, centerCrop, makeAspectCrop } from 'react-image-crop'
import 'react-image-crop/dist/ReactCrop.css'

/** The cover is cropped to aspect 2, starting at 30% of the image width; the output is a PNG. */
export const COVER_ASPECT = 2
export const COVER_INITIAL_WIDTH_PERCENT = 30

/** Draws the chosen area of the image at its natural resolution and returns it as PNG. */
export async function cropToPng(image: HTMLImageElement, crop: PixelCrop): Promise<Blob> {
  const scaleX = image.naturalWidth / image.width
  const scaleY = image.naturalHeight / image.height
  const canvas = document.createElement('canvas')
  canvas.width = Math.max(1, Math.round(crop.width * scaleX))
  canvas.height = Math.max(1, Math.round(crop.height * scaleY))
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new Error('Canvas is not available')
  ctx.drawImage(image, crop.x * scaleX, crop.y * scaleY, crop.width * scaleX, crop.height * scaleY, 0, 0, canvas.width, canvas.height)
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Crop failed'))), 'image/png'))
}

export function CoverCropDialog({
  src,
  onCancel,
  onCropped,
}: {
  src: string | null
  onCancel: () => void
  onCropped: (png: Blob, previewUrl: string) => void
}) {
  const { t } = useTranslation()
  const imageRef = useRef<HTMLImageElement>(null)
  const [crop, setCrop] = useState<PercentCrop>()
  const [completed, setCompleted] = useState<PixelCrop>()

  const onImageLoad = (e: React.SyntheticEvent<HTMLImageElement>) => {
    const { width, height } = e.currentTarget
    const initial = centerCrop(makeAspectCrop({ unit: '%', width: COVER_INITIAL_WIDTH_PERCENT }, COVER_ASPECT, width, height), width, height)
    setCrop(initial)
    setCompleted({
      unit: 'px',
      x: (initial.x / 100) * width,
      y: (initial.y / 100) * height,
      width: (initial.width / 100) * width,
      height: (initial.height / 100) * height,
    })
  }

  const close = () => {
    setCrop(undefined)
    setCompleted(undefined)
    onCancel()
  }

  const apply = async () => {
    if (!imageRef.current || !completed?.width || !completed?.height) return
    const png = await cropToPng(imageRef.current, completed)
    setCrop(undefined)
    setCompleted(undefined)
    onCropped(png, URL.createObjectURL(png))
  }

  return (
    <Dialog.Root open={!!src} onOpenChange={(e) => (e.open ? undefined : close())} size="lg" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="crop-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('profile.crop.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body display="flex" justifyContent="center">
              {src ? (
                <ReactCrop crop={crop} aspect={COVER_ASPECT} onChange={(_, percent) => setCrop(percent)} onComplete={(pixels) => setCompleted(pixels)} keepSelection>
                  <img ref={imageRef} src={src} alt={t('profile.crop.imageAlt')} onLoad={onImageLoad} style={{ maxHeight: '60vh' }} />
                </ReactCrop>
              ) : null}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="ghost" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button colorPalette="brand" onClick={apply} disabled={!completed?.width || !completed?.height}>
                {t('profile.crop.crop')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
