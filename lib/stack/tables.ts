// The DynamoDB tables, built from lambdas/contract/tables.ts (the definitions local mode uses too).
import type { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import {
  ACCESS_TABLE,
  DECISIONS_TABLE,
  LEARNING_TABLE,
  TABLES,
  type IndexDefinition,
  type TableDefinition,
} from '../../lambdas/contract/tables';

/**
 * Context `keepRetiredIndexes=true`: the first step of upgrading a deployed table whose indexes changed shape
 * (docs/deploy.md): the new indexes are created and the retired ones kept, one CloudFormation index change at a time.
 */
const KEEP_RETIRED_INDEXES_CONTEXT = 'keepRetiredIndexes';

/** `-c key=true` arrives as a string, cdk.json gives a boolean: accept both, refuse anything else. */
export function booleanContext(scope: Construct, key: string, fallback = false): boolean {
  const raw: unknown = scope.node.tryGetContext(key);
  if (raw === undefined || raw === null || raw === '') return fallback;
  if (raw === false || raw === 'false') return false;
  if (raw === true || raw === 'true') return true;
  throw new Error(`context ${key} must be true or false, got ${JSON.stringify(raw)}`);
}

const indexProps = (index: IndexDefinition) => ({
  indexName: index.indexName,
  partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
  sortKey: index.sortKey ? { name: index.sortKey, type: AttributeType.STRING } : undefined,
  ...(index.projected
    ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projected] }
    : { projectionType: ProjectionType.ALL }),
});

interface ServiceTablesProps {
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
}

/**
 * Adds the tables to `scope` itself rather than to a child construct, so their logical ids (and so the deployed
 * tables) stay those of the single-constructor stack this replaced: a new id would replace a table and its data.
 */
export class ServiceTables {
  readonly access: TableV2;
  readonly decisions: TableV2;
  readonly learning: TableV2;
  /** Every table with its definition, in definition order (the alarms iterate it). */
  readonly all: ReadonlyMap<TableDefinition, TableV2>;
  /** Each table's deployed indexes: its definition's, and its retired ones while the upgrade keeps them. */
  readonly indexNames: ReadonlyMap<TableDefinition, readonly string[]>;
  /**
   * Context `keepRetiredIndexes=true`: the first step of an upgrade, in which the roles also keep version 3's item
   * permissions (lib/stack/access.ts, VERSION_3_RETIRED_ACCESS) until the step without the flag.
   */
  readonly keepRetired: boolean;

  constructor(scope: Construct, props: ServiceTablesProps) {
    const all = new Map<TableDefinition, TableV2>();
    const indexNames = new Map<TableDefinition, string[]>();
    const keepRetired = (this.keepRetired = booleanContext(scope, KEEP_RETIRED_INDEXES_CONTEXT));
    for (const def of TABLES) {
      const indexes = [...def.indexes, ...(keepRetired ? (def.retiredIndexes ?? []) : [])];
      indexNames.set(
        def,
        indexes.map((index) => index.indexName),
      );
      all.set(
        def,
        new TableV2(scope, `${def.id}Table`, {
          partitionKey: { name: def.partitionKey, type: AttributeType.STRING },
          ...(def.sortKey ? { sortKey: { name: def.sortKey, type: AttributeType.STRING } } : {}),
          globalSecondaryIndexes: indexes.map(indexProps),
          timeToLiveAttribute: def.ttlAttribute,
          // On demand: traffic is spiky and partner-driven; nothing to size or autoscale.
          billing: Billing.onDemand(),
          pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
          // AWS managed key (aws/dynamodb) rather than the AWS owned default: the tables hold key hashes and partner
          // data, and with this key every use shows in the account's CloudTrail, at no key cost and no key policy
          // to run. A customer managed key would add rotation/policy work without a requirement asking for it.
          encryption: TableEncryptionV2.awsManagedKey(),
          deletionProtection: props.deletionProtection,
          removalPolicy: props.removalPolicy,
        }),
      );
    }
    this.all = all;
    this.indexNames = indexNames;
    this.access = all.get(ACCESS_TABLE)!;
    this.decisions = all.get(DECISIONS_TABLE)!;
    this.learning = all.get(LEARNING_TABLE)!;
  }
}
