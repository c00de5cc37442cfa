// The validated signal as the use case sees it. Pure types: no AWS SDK, no I/O.

export const SOURCES = ['email', 'task', 'crm_event', 'support_message', 'internal'] as const;
export type Source = (typeof SOURCES)[number];

/** Plain JSON value, as metadata arrives after JSON.parse. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface Signal {
  workspace_id: string;
  source: Source;
  subject?: string;
  body?: string;
  sender?: string;
  /** RFC 3339 timestamp normalized to UTC (`...Z`); defaulted to the time of receipt when absent. */
  received_at: string;
  metadata?: { [key: string]: JsonValue };
}
