import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { system } from './theme'

const srcDir = join(__dirname, '..')

/** The recipes (or slot recipes) each Chakra component of this app is styled by. */
const RECIPES: Record<string, string[]> = {
  Accordion: ['accordion'],
  Alert: ['alert'],
  Avatar: ['avatar'],
  Badge: ['badge'],
  Button: ['button'],
  Checkbox: ['checkbox', 'checkmark'],
  CloseButton: ['button'],
  Collapsible: ['collapsible'],
  Container: ['container'],
  Dialog: ['dialog'],
  Drawer: ['drawer'],
  Field: ['field'],
  Fieldset: ['fieldset'],
  Heading: ['heading'],
  Icon: ['icon'],
  IconButton: ['button'],
  Input: ['input'],
  InputGroup: ['inputAddon'],
  Link: ['link'],
  Menu: ['menu'],
  NativeSelect: ['nativeSelect'],
  RadioCard: ['radioCard', 'radiomark'],
  RadioGroup: ['radioGroup', 'radiomark'],
  Separator: ['separator'],
  Skeleton: ['skeleton'],
  SkeletonCircle: ['skeleton'],
  SkeletonText: ['skeleton'],
  Spinner: ['spinner'],
  Steps: ['steps'],
  Switch: ['switch'],
  Tabs: ['tabs'],
  Tag: ['tag'],
  Textarea: ['textarea'],
  Toast: ['toast'],
  Toaster: ['toast'],
  Tooltip: ['tooltip'],
}
/** Layout and plain elements, and the system's own functions: no recipe. */
const NO_RECIPE = new Set([
  'Box', 'Center', 'chakra', 'ChakraProvider', 'createSystem', 'createToaster', 'defaultBaseConfig', 'defineConfig', 'Flex', 'Grid', 'HStack',
  'Image', 'LinkBox', 'LinkOverlay', 'Portal', 'SimpleGrid', 'Stack', 'Text', 'useBreakpointValue', 'VisuallyHidden', 'Wrap',
])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** Every name the app imports from '@chakra-ui/react'. */
function chakraImports(): Set<string> {
  const names = new Set<string>()
  for (const file of sourceFiles(srcDir)) {
    for (const [, list] of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g)) {
      for (const item of list.split(',')) {
        const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]
        if (name && !item.trim().startsWith('type ')) names.add(name)
      }
    }
  }
  return names
}

describe('theme', () => {
  it('knows every Chakra component the app uses (a new one needs its recipe in theme.ts)', () => {
    const unknown = [...chakraImports()].filter((name) => !(name in RECIPES) && !NO_RECIPE.has(name))
    expect(unknown).toEqual([])
  })

  it("has the recipe of every component the app uses, and the test's list is not stale", () => {
    const used = [...chakraImports()].filter((name) => name in RECIPES)
    for (const name of used) {
      for (const key of RECIPES[name]) {
        expect(system.getRecipe(key) ?? system.getSlotRecipe(key), `${name}: recipe '${key}'`).toBeTruthy()
      }
    }
    expect(Object.keys(RECIPES).filter((name) => !used.includes(name))).toEqual([])
  })

  it('leaves out recipes no component of the app uses', () => {
    expect(system.getSlotRecipe('datePicker')).toBeFalsy()
    expect(system.getSlotRecipe('combobox')).toBeFalsy()
  })
})
