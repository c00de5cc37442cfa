// Lets require() load packages that export only an `import` entry (middy 7). tsx compiles our imports to require(),
// and such a package resolves only under the `import` condition. A global --conditions=import would do the same, but
// on Node.js >= 22 tsx then hands require() of a .json file an ES module's source.
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';

if (typeof Module.registerHooks === 'function') {
  // Node.js >= 22.15: retry the resolution with the `import` condition, for those packages only.
  Module.registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        if (error?.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
        return nextResolve(specifier, { ...context, conditions: [...context.conditions, 'import'] });
      }
    },
  });
} else {
  // Node.js 20 has no synchronous resolve hook: resolve the package's own `import` entry by hand (tsx then loads the
  // ES module it names), as jest's moduleNameMapper does for the tests.
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    try {
      return resolveFilename.call(this, request, ...rest);
    } catch (error) {
      const manifest =
        error?.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' && /in (\S+package\.json)/.exec(error.message)?.[1];
      const entry = manifest && importEntry(JSON.parse(readFileSync(manifest, 'utf8')).exports?.['.']);
      if (!entry) throw error;
      return join(dirname(manifest), entry);
    }
  };
}

/** The file an `exports` entry gives under the `import` condition (a string, or nested `import`/`default`). */
function importEntry(exports) {
  if (typeof exports === 'string') return exports;
  if (!exports || typeof exports !== 'object') return undefined;
  return importEntry(exports.import ?? exports.default);
}
