import i18n, { type ParseKeys } from 'i18next'
import LanguageDetector from 'i18next-browser-languagedetector'
import HttpBackend from 'i18next-http-backend'
import { initReactI18next } from 'react-i18next'
import { siteStorage } from './site-storage'

/** A key of the translation files (checked against en's: see src/i18next.d.ts). */
export type TranslationKey = ParseKeys

/** Every language with a translation file in public/locales; en is the fallback. */
export const SUPPORTED_LANGUAGES = ['en', 'pt', 'fr', 'ge', 'bn', 'hi', 'ta'] as const
/** The languages offered by the settings chooser. */
export const CHOOSER_LANGUAGES = ['en', 'pt', 'fr', 'ge'] as const
export const LANGUAGE_STORAGE_KEY = 'lang'
export const LANGUAGE_COOKIE = 'i18next'

/** 'ge' is the product's code for German; the html lang attribute uses the standard 'de'. */
export function htmlLang(lng: string) {
  return lng === 'ge' ? 'de' : lng
}

export function initI18n() {
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = htmlLang(lng)
  })
  return i18n
    .use(HttpBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      fallbackLng: 'en',
      supportedLngs: [...SUPPORTED_LANGUAGES],
      nonExplicitSupportedLngs: false,
      load: 'currentOnly',
      detection: {
        // Spec: cookie, html language tag, local storage, path; cached in a cookie.
        order: ['cookie', 'htmlTag', 'localStorage', 'path'],
        lookupCookie: LANGUAGE_COOKIE,
        lookupLocalStorage: LANGUAGE_STORAGE_KEY,
        caches: ['cookie'],
      },
      backend: { loadPath: '/locales/{{lng}}/translation.json' },
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    })
}

/** Applies a language at once and remembers it (local storage `lang` and the cookie). */
export async function setLanguage(lng: string) {
  siteStorage.setItem(LANGUAGE_STORAGE_KEY, lng)
  await i18n.changeLanguage(lng)
}
