// A stranger's Vue 3 app: the element and its Vue types from @paysession/checkout.
import '@paysession/checkout'
import type {} from '@paysession/checkout/vue'
import { createApp } from 'vue'
import App from './App.vue'

createApp(App).mount('#root')
