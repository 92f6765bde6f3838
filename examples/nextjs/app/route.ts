import { shop } from '../lib/shop'

export const dynamic = 'force-dynamic'

export function GET(request: Request) {
  return shop().checkout(request)
}
