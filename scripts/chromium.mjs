// Debian's Chromium as every Playwright run here launches it (scripts/ensure-chromium.sh installs
// it; Playwright's own browser download cannot work on these machines). CHROMIUM_PATH overrides.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    // Containers and CI runners have no user namespaces for Chromium's sandbox, and a small /dev/shm.
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    // No background traffic or updates during a test.
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
}
