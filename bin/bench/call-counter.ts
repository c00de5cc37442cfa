import type { Service } from '../../lambdas/service';

type MiddlewareStack = Service['dependencies']['client']['middlewareStack'];

/** Counts what the handlers ask of DynamoDB: calls, and items read and written (a transaction's Puts count each). */
export class CallCounter {
  calls = 0;
  readCalls = 0;
  readItems = 0;
  writeCalls = 0;
  writeItems = 0;
  readonly commands = new Map<string, number>();
  /** Items read, per table. */
  readonly readItemsByTable = new Map<string, number>();

  /** Counts every command of the client behind `stack` (a service's client), under middleware `name`. */
  attach(stack: MiddlewareStack, name: string): this {
    stack.add(
      (next, context) => async (args) => {
        this.record(String(context.commandName ?? 'unknown'), (args.input ?? {}) as Record<string, unknown>);
        return next(args);
      },
      { step: 'initialize', name },
    );
    return this;
  }

  reset(): void {
    this.calls = this.readCalls = this.readItems = this.writeCalls = this.writeItems = 0;
    this.readItemsByTable.clear();
  }

  /** Items read from one table since the last reset. */
  readItemsOf(table: string): number {
    return this.readItemsByTable.get(table) ?? 0;
  }

  private readFrom(table: unknown, items: number): void {
    this.readItems += items;
    const name = String(table);
    this.readItemsByTable.set(name, (this.readItemsByTable.get(name) ?? 0) + items);
  }

  /** Command name -> operation (GetItemCommand -> Get), worked out once per command: the bench times these calls. */
  private readonly operations = new Map<string, string>();

  record(commandName: string, input: Record<string, unknown>): void {
    let name = this.operations.get(commandName);
    if (name === undefined) {
      name = commandName.replace(/Command$/, '').replace(/Item(s)?$/, '');
      this.operations.set(commandName, name);
    }
    this.calls++;
    this.commands.set(commandName, (this.commands.get(commandName) ?? 0) + 1);
    switch (name) {
      case 'Get':
      case 'Query':
      case 'Scan':
        this.readCalls++;
        this.readFrom(input.TableName, 1);
        break;
      case 'BatchGet':
        this.readCalls++;
        for (const [table, t] of Object.entries((input.RequestItems ?? {}) as Record<string, { Keys?: unknown }>))
          this.readFrom(table, length(t.Keys));
        break;
      case 'TransactGet':
        this.readCalls++;
        for (const item of (input.TransactItems ?? []) as { Get?: { TableName?: string } }[])
          this.readFrom(item.Get?.TableName, 1);
        break;
      case 'Put':
      case 'Update':
      case 'Delete':
        this.writeCalls++;
        this.writeItems++;
        break;
      case 'BatchWrite':
        this.writeCalls++;
        for (const t of Object.values((input.RequestItems ?? {}) as Record<string, unknown>))
          this.writeItems += length(t);
        break;
      case 'TransactWrite':
        this.writeCalls++;
        // ConditionCheck entries are not writes.
        for (const item of (input.TransactItems ?? []) as Record<string, unknown>[])
          if (!item.ConditionCheck) this.writeItems++;
        break;
      default:
        break;
    }
  }
}

const length = (v: unknown) => (Array.isArray(v) ? v.length : 0);
