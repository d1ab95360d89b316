import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react'
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  collapsibleSlotRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  drawerSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  radioCardSlotRecipe,
  radioGroupSlotRecipe,
  radiomarkRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  stepsSlotRecipe,
  switchSlotRecipe,
  tabsSlotRecipe,
  tagSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme'

/**
 * The marketplace look: a deep navy/purple dark theme, a clean light theme, and a violet-to-pink
 * gradient accent. Chakra's own semantic tokens (bg, fg, border) are overridden so every component
 * (dialogs, menus, inputs) follows the theme.
 */
export const ACCENT_GRADIENT = 'linear-gradient(135deg, #7c3aed 0%, #c026d3 55%, #ec4899 100%)'

const config = defineConfig({
  globalCss: {
    'html, body': {
      bg: 'bg',
      color: 'fg',
      minHeight: '100%',
    },
    '#root': { minHeight: '100vh' },
  },
  theme: {
    tokens: {
      fonts: {
        heading: { value: "'Inter', 'Segoe UI', system-ui, -apple-system, 'Noto Sans', sans-serif" },
        body: { value: "'Inter', 'Segoe UI', system-ui, -apple-system, 'Noto Sans', sans-serif" },
      },
      colors: {
        brand: {
          50: { value: '#f3efff' },
          100: { value: '#e6dcff' },
          200: { value: '#cdb9ff' },
          300: { value: '#ad8cff' },
          400: { value: '#9061fb' },
          500: { value: '#7c3aed' },
          600: { value: '#6b28d9' },
          700: { value: '#5a1fb8' },
          800: { value: '#461a8d' },
          900: { value: '#2f1363' },
          950: { value: '#1c0b40' },
        },
        navy: {
          700: { value: '#25224a' },
          800: { value: '#1a1838' },
          850: { value: '#14132c' },
          900: { value: '#0e0d22' },
          950: { value: '#090818' },
        },
      },
      gradients: {
        accent: { value: ACCENT_GRADIENT },
      },
    },
    semanticTokens: {
      colors: {
        bg: {
          DEFAULT: { value: { _light: '#f6f5fb', _dark: '{colors.navy.950}' } },
          panel: { value: { _light: '#ffffff', _dark: '{colors.navy.850}' } },
          subtle: { value: { _light: '#efedf8', _dark: '{colors.navy.900}' } },
          muted: { value: { _light: '#e9e6f5', _dark: '{colors.navy.800}' } },
          emphasized: { value: { _light: '#dcd8ee', _dark: '{colors.navy.700}' } },
        },
        fg: {
          DEFAULT: { value: { _light: '#15132b', _dark: '#eeecfb' } },
          muted: { value: { _light: '#5f5b7d', _dark: '#a9a5cc' } },
          subtle: { value: { _light: '#8a86a8', _dark: '#7d79a3' } },
        },
        border: {
          DEFAULT: { value: { _light: '#e3e0f0', _dark: 'rgba(255,255,255,0.09)' } },
          muted: { value: { _light: '#ebe8f5', _dark: 'rgba(255,255,255,0.06)' } },
          subtle: { value: { _light: '#f0eef8', _dark: 'rgba(255,255,255,0.04)' } },
        },
        brand: {
          solid: { value: '{colors.brand.500}' },
          contrast: { value: 'white' },
          fg: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.300}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.900}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.950}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.800}' } },
          focusRing: { value: '{colors.brand.500}' },
        },
      },
      shadows: {
        card: { value: { _light: '0 8px 30px rgba(40, 20, 90, 0.08)', _dark: '0 10px 40px rgba(0, 0, 0, 0.45)' } },
      },
    },
  },
})

/**
 * Chakra's default theme with the recipes of the components this app uses, not all 76: the
 * others' styles would be a quarter of the theme's weight on every first visit. A component
 * without its recipe here renders unstyled: theme.test.ts fails for a Chakra component used in
 * src/ whose recipe is missing.
 */
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      checkmark: checkmarkRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      radiomark: radiomarkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      accordion: accordionSlotRecipe,
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      checkbox: checkboxSlotRecipe,
      collapsible: collapsibleSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      field: fieldSlotRecipe,
      fieldset: fieldsetSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      radioCard: radioCardSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
      steps: stepsSlotRecipe,
      switch: switchSlotRecipe,
      tabs: tabsSlotRecipe,
      tag: tagSlotRecipe,
      toast: toastSlotRecipe,
      tooltip: tooltipSlotRecipe,
    },
  },
})

export const system = createSystem(defaultBaseConfig, chakraTheme, config)
