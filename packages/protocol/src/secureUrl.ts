// Its own module, free of the error classes: the widget's first file checks a URL with it.

// The one rule for every URL a checkout takes or passes on (the service, the relay, the
// paymaster, a network's RPCs, which a wallet keeps after the page is gone, explorer links,
// rendered as links, and WalletConnect's relay, a WebSocket): https (wss), or plain http (ws) to
// this machine only, for the sandbox. Judged on the parsed URL, never on the text: in
// `http://localhost:x@evil.example/` the host is evil.example, so a URL with user info is refused
// outright (it would also put a secret in every log line).

/**
 * Whether the checkout may use this URL: `https:`, or `http:` to localhost, 127.0.0.0/8 or
 * [::1] (as `URL` spells the host: it normalises `127.1` and `[0::1]`); no user or password.
 * @example isSecureUrl(new URL('http://127.0.0.1:4010')) // true
 */
export function isSecureUrl(url: URL): boolean {
  const host = url.hostname
  return (
    !url.username &&
    !url.password &&
    (url.protocol === 'https:' ||
      (url.protocol === 'http:' &&
        (host === 'localhost' || host === '[::1]' || /^127(\.\d+){3}$/.test(host))))
  )
}
