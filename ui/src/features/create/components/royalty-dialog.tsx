import { useTranslation } from 'react-i18next'
import { MAX_ROYALTIES, type RoyaltyRow, validateRoyalties } from '../validation'
import { RowsDialog, newRowId } from './rows-dialog'
import { TEXT_LIMITS } from '@/lib/text-limits'

export const emptyRoyalty = (): RoyaltyRow => ({ id: newRowId(), address: '', percentage: '' })

/**
 * The royalty popup: at most 2 rows of a wallet address and a percentage, with the hint to enter
 * only Ethereum addresses and the spec's messages (see `validateRoyalties`).
 */
export function RoyaltyDialog({ open, rows, onSave, onClose }: { open: boolean; rows: RoyaltyRow[]; onSave: (rows: RoyaltyRow[]) => void; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <RowsDialog<RoyaltyRow>
      open={open}
      title={t('createAsset.royaltyDialog.title')}
      rows={rows}
      emptyRow={emptyRoyalty}
      columns={[
        { field: 'address', label: t('createAsset.royaltyDialog.address'), placeholder: t('createAsset.royaltyDialog.addressPlaceholder'), maxLength: TEXT_LIMITS.walletAddress, flex: 3 },
        { field: 'percentage', label: t('createAsset.royaltyDialog.percentage'), placeholder: '2.5', inputMode: 'decimal', flex: 1 },
      ]}
      validate={validateRoyalties}
      maxRows={MAX_ROYALTIES}
      maxRowsKey="createAsset.royaltyDialog.errors.max"
      hintKey="createAsset.royaltyDialog.hint"
      addLabel={t('createAsset.royaltyDialog.add')}
      removeLabel={t('createAsset.royaltyDialog.remove')}
      onSave={(saved) => onSave(saved.map((r) => ({ ...r, address: r.address.trim(), percentage: r.percentage.trim() })))}
      onClose={onClose}
      testId="royalty-dialog"
    />
  )
}
