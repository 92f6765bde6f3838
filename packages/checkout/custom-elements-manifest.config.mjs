// `cem analyze`: writes custom-elements.json (attributes, properties, methods, events, parts, CSS properties).
export default {
  globs: ['src/components/**/*.ts', 'src/events/*.ts'],
  exclude: ['src/**/*.test.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
    {
      name: 'paysession:documented-events-only',
      // dispatchEvent(new PaySessionXEvent(...)) is seen as a nameless event; the @event tags name them.
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules)
          for (const declaration of module.declarations ?? []) {
            if (declaration.events) declaration.events = declaration.events.filter((e) => e.name)
            if (declaration.members)
              declaration.members = declaration.members.filter((m) => !m.name.startsWith('_'))
            if (declaration.attributes)
              declaration.attributes = declaration.attributes.filter((a) => !a.name.startsWith('_'))
          }
      },
    },
  ],
}
