import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vite'

// docs/frameworks/vue.md: Vue leaves the paysession-* tags to the browser.
export default defineConfig({
  plugins: [
    vue({
      template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('paysession-') } },
    }),
  ],
})
