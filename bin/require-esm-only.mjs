// Lets require() load packages that export only an `import` entry (middy 7): Node.js >= 22.12 can require() an ES
// module, but resolves such a package only under the `import` condition. tsx compiles our imports to require().
// A global --conditions=import would do the same, but tsx then hands require() of a .json file an ES module's source.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (error?.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
      return nextResolve(specifier, { ...context, conditions: [...context.conditions, 'import'] });
    }
  },
});
