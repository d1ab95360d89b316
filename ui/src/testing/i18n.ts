import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import en from '../../public/locales/en/translation.json'

/** Tests use the real English file, loaded synchronously, so texts are asserted verbatim. */
export function initTestI18n() {
  if (i18n.isInitialized) return i18n
  i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initAsync: false,
  })
  return i18n
}
