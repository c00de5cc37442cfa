// docs/deploy.md's IAM table against the route table: each route's row names exactly the DynamoDB actions and items
// (by key prefix) its role is granted, so an operator reading the guide sees the policy the stack deploys.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTES, type TableAction } from '../../lambdas/contract/routes';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';

const ACTIONS: readonly TableAction[] = [
  'GetItem',
  'PutItem',
  'UpdateItem',
  'BatchGetItem',
  'BatchWriteItem',
  'Query',
  'ConditionCheckItem',
];
const guide = readFileSync(path.resolve(__dirname, '../../docs/deploy.md'), 'utf8');

/** The DynamoDB cell of a role's row, read as action → the key prefixes (and indexes) named after it. */
function documented(role: string): Record<string, string[]> {
  const row = guide.split('\n').find((line) => line.startsWith(`| ${role} |`));
  if (!row) return {};
  const grants: Record<string, Set<string>> = {};
  let actions: string[] = [];
  let named = false;
  for (const [, token] of row.split('|')[3].matchAll(/`([^`]+)`/g)) {
    if ((ACTIONS as readonly string[]).includes(token)) {
      if (named) actions = [];
      named = false;
      actions.push(token);
    } else if (actions.length && (token.endsWith('#') || /^[a-z_]+$/.test(token))) {
      named = true;
      for (const action of actions) (grants[action] ??= new Set()).add(token);
    }
  }
  return Object.fromEntries(Object.entries(grants).map(([action, items]) => [action, [...items].sort()]));
}

describe('docs/deploy.md, IAM layout', () => {
  it.each(ROUTES.map((route) => [route.id, route] as const))(
    '%s: the row names what the role is granted',
    (id, route) => {
      const granted: Record<string, string[]> = {};
      for (const [action, items] of Object.entries(route.decisions.actions)) {
        granted[action] = items.map((item) => ITEM_PREFIX[item]).sort();
      }
      if (route.decisions.indexes) granted.Query = [...route.decisions.indexes].sort();
      expect(documented(id)).toEqual(granted);
    },
  );
  it.each(ROUTES.map((route) => [route.id, route] as const))(
    '%s: the row names its actions on the learning table',
    (id, route) => {
      const row = guide.split('\n').find((line) => line.startsWith(`| ${id} |`))!;
      const named = [...row.split('|')[4].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect(named.sort()).toEqual([...(route.learning ?? [])].sort());
    },
  );
});
