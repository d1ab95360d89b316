import { useTranslation } from 'react-i18next'
import { type PropertyRow, keptProperties, validateProperties } from '../validation'
import { RowsDialog, newRowId } from './rows-dialog'
import { TEXT_LIMITS } from '@/lib/text-limits'

export const emptyProperty = (): PropertyRow => ({ id: newRowId(), key: '', value: '' })

/** The properties popup: key and value rows; Save keeps the filled rows. */
export function PropertiesDialog({ open, rows, onSave, onClose }: { open: boolean; rows: PropertyRow[]; onSave: (rows: PropertyRow[]) => void; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <RowsDialog<PropertyRow>
      open={open}
      title={t('createAsset.propertiesDialog.title')}
      rows={rows}
      emptyRow={emptyProperty}
      columns={[
        { field: 'key', label: t('createAsset.propertiesDialog.key'), placeholder: t('createAsset.propertiesDialog.keyPlaceholder'), maxLength: TEXT_LIMITS.property },
        { field: 'value', label: t('createAsset.propertiesDialog.value'), placeholder: t('createAsset.propertiesDialog.valuePlaceholder'), maxLength: TEXT_LIMITS.property },
      ]}
      validate={validateProperties}
      addLabel={t('createAsset.propertiesDialog.add')}
      removeLabel={t('createAsset.propertiesDialog.remove')}
      onSave={(saved) => onSave(keptProperties(saved))}
      onClose={onClose}
      testId="properties-dialog"
    />
  )
}
