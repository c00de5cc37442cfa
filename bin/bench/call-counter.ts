/** Counts what the handlers ask of DynamoDB: calls, and items read and written (a transaction's Puts count each). */
export class CallCounter {
  calls = 0;
  readCalls = 0;
  readItems = 0;
  writeCalls = 0;
  writeItems = 0;
  readonly commands = new Map<string, number>();

  reset(): void {
    this.calls = this.readCalls = this.readItems = this.writeCalls = this.writeItems = 0;
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
        this.readItems++;
        break;
      case 'BatchGet':
        this.readCalls++;
        for (const t of Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown }>)) this.readItems += length(t.Keys);
        break;
      case 'TransactGet':
        this.readCalls++;
        this.readItems += length(input.TransactItems);
        break;
      case 'Put':
      case 'Update':
      case 'Delete':
        this.writeCalls++;
        this.writeItems++;
        break;
      case 'BatchWrite':
        this.writeCalls++;
        for (const t of Object.values((input.RequestItems ?? {}) as Record<string, unknown>)) this.writeItems += length(t);
        break;
      case 'TransactWrite':
        this.writeCalls++;
        // ConditionCheck entries are not writes.
        for (const item of (input.TransactItems ?? []) as Record<string, unknown>[]) if (!item.ConditionCheck) this.writeItems++;
        break;
      default:
        break;
    }
  }
}

const length = (v: unknown) => (Array.isArray(v) ? v.length : 0);
