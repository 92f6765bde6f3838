import { shop } from '../../../lib/shop'

// Runs on the edge runtime as well as on Node: the package needs only fetch and Web Crypto.
export const runtime = 'edge'

// Route handlers get the untouched Request: the body is still the raw bytes the signature covers.
export function POST(request: Request) {
  return shop().webhook(request)
}
