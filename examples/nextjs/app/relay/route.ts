import { shop } from '../../lib/shop'

export function POST(request: Request) {
  return shop().relay(request)
}
