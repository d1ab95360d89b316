import 'i18next'
import type en from '../public/locales/en/translation.json'

/**
 * Every t() key is checked against the English file (the fallback every language mirrors, see
 * lib/locales.test.ts): a wrong key, or a template key outside its typed union, fails `tsc`.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation'
    resources: { translation: typeof en }
  }
}
