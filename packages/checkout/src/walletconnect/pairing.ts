import { html } from 'lit'
import { copyButton, type View } from '../components/checkout/checkout.parts.js'
import { languageOf } from '../i18n/catalogs.js'
import { qrCode } from '../qr/qrCode.js'

// WalletConnect's pairing while the customer connects: its `wc:` URI as a QR code for a phone's
// wallet to scan, and a button that copies it (a wallet on the same computer pastes it). It
// travels with the manual payment's view, which has the QR encoder and its styles.

const words: Record<string, { title: string; scan: string; qr: string; copy: string }> = {
  en: {
    title: 'Connect with WalletConnect',
    scan: 'Scan this code with your phone’s wallet, then approve the connection there.',
    qr: 'WalletConnect QR code',
    copy: 'Copy link',
  },
  de: {
    title: 'Mit WalletConnect verbinden',
    scan: 'Scannen Sie diesen Code mit der Wallet auf Ihrem Handy und bestätigen Sie dort die Verbindung.',
    qr: 'WalletConnect-QR-Code',
    copy: 'Link kopieren',
  },
  fr: {
    title: 'Se connecter avec WalletConnect',
    scan: 'Scannez ce code avec le wallet de votre téléphone, puis approuvez la connexion.',
    qr: 'QR code WalletConnect',
    copy: 'Copier le lien',
  },
  es: {
    title: 'Conectar con WalletConnect',
    scan: 'Escanea este código con la billetera de tu teléfono y aprueba allí la conexión.',
    qr: 'Código QR de WalletConnect',
    copy: 'Copiar enlace',
  },
  it: {
    title: 'Connetti con WalletConnect',
    scan: 'Scansiona questo codice con il wallet del telefono, poi approva lì la connessione.',
    qr: 'Codice QR WalletConnect',
    copy: 'Copia link',
  },
  pt: {
    title: 'Conectar com WalletConnect',
    scan: 'Escaneie este código com a carteira do seu celular e aprove a conexão nela.',
    qr: 'QR code do WalletConnect',
    copy: 'Copiar link',
  },
  nl: {
    title: 'Verbinden met WalletConnect',
    scan: 'Scan deze code met de wallet op je telefoon en keur daar de verbinding goed.',
    qr: 'WalletConnect-QR-code',
    copy: 'Link kopiëren',
  },
  ja: {
    title: 'WalletConnectで接続',
    scan: 'スマートフォンのウォレットでこのコードを読み取り、接続を承認してください。',
    qr: 'WalletConnectのQRコード',
    copy: 'リンクをコピー',
  },
  zh: {
    title: '通过 WalletConnect 连接',
    scan: '用手机钱包扫描此二维码，然后在钱包中批准连接。',
    qr: 'WalletConnect 二维码',
    copy: '复制链接',
  },
  ko: {
    title: 'WalletConnect로 연결',
    scan: '휴대폰 지갑으로 이 코드를 스캔한 뒤 지갑에서 연결을 승인하세요.',
    qr: 'WalletConnect QR 코드',
    copy: '링크 복사',
  },
}

/** The pairing step of a WalletConnect connection: QR code, copy button, waiting. */
export function pairing(view: View, uri: string) {
  const { host, t } = view
  const w = words[languageOf(host.resolvedLocale)] ?? words.en!
  return html`
    <h3>${w.title}</h3>
    <p class="center">${w.scan}</p>
    ${qrCode(uri, w.qr)}
    <p part="notice" class="center"><span class="spinner"></span>${t.connecting}</p>
    <div class="actions">${copyButton(view, uri, w.copy)}</div>
  `
}
