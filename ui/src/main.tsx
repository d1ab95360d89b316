import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { installErrorReporting } from './lib/error-reporting'
import { initI18n } from './lib/i18n'

installErrorReporting()

void initI18n()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
