// A stranger's Svelte 5 app: the element and its Svelte types from @paysession/checkout.
import '@paysession/checkout'
import type {} from '@paysession/checkout/svelte'
import { mount } from 'svelte'
import App from './App.svelte'

mount(App, { target: document.getElementById('root')! })
