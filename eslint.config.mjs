// Lint: typescript-eslint's recommended rules with type information (recommended-type-checked). Formatting is
// Prettier's (.prettierrc.json), so no stylistic rule is turned on here.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'cdk.out/', 'coverage/', '.local-data/', 'sdk/dist/', 'sdk/node_modules/'],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A leading underscore marks a binding kept on purpose: a parameter an interface requires, or a property
      // dropped from a copy with a rest pattern.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Tests read JSON answers and CloudFormation templates as `any` on purpose: their expect() calls are the type
    // check, and typing every answer would repeat the OpenAPI document the contract tests already validate against.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // Fakes implement the async store interfaces with synchronous bodies.
      '@typescript-eslint/require-await': 'off',
      // Tests compare functions by identity (saved stdout.write, property descriptors' get/set) and call a method
      // unbound on purpose, as middy does.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // Jest reads its configuration with require().
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
