/** What the demo shop sells. Prices are decimal strings, as the service wants them. */
export type Product = {
  id: string
  name: string
  description: string
  amount: string
  currency: 'USD' | 'EUR'
  /** Two colours for the product's drawn illustration. */
  colors: [string, string]
  shape: 'notebook' | 'mug' | 'beanie' | 'tamper'
}

export const products: Product[] = [
  {
    id: 'notebook',
    name: 'Field Notebook',
    description: 'Dot-grid, 96 pages, lies flat. The one you reach for first.',
    amount: '12.00',
    currency: 'USD',
    colors: ['#e9e4d8', '#2f5d50'],
    shape: 'notebook',
  },
  {
    id: 'mug',
    name: 'Stoneware Mug',
    description: 'Hand-glazed, 350 ml, dishwasher safe.',
    amount: '24.50',
    currency: 'USD',
    colors: ['#f1e6e0', '#b4533c'],
    shape: 'mug',
  },
  {
    id: 'beanie',
    name: 'Merino Beanie',
    description: 'Fine merino rib knit. Warm, never itchy.',
    amount: '48.00',
    currency: 'USD',
    colors: ['#e2e6ee', '#34457a'],
    shape: 'beanie',
  },
  {
    id: 'tamper',
    name: 'Espresso Tamper',
    description: 'Walnut handle, 58 mm steel base. Ships from Lyon.',
    amount: '39.00',
    currency: 'EUR',
    colors: ['#efe9df', '#6b4a2f'],
    shape: 'tamper',
  },
]

export function productById(id: string | null | undefined): Product | undefined {
  return products.find((p) => p.id === id)
}
