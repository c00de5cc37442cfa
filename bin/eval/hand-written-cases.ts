// Hand-written monitoring alerts and bug/task texts with the severity their (imagined) authors would give them.
// Written for the behaviour tests (test/unit/engine-alerts.test.ts) from general knowledge of how alert rules and bug
// reports read: an alert name, a one-line summary, a description with template placeholders. They are NOT a quality
// measure: the same person wrote them and the lexicon, and no real labeled alerts or tickets are in ../shared/data.
// `npm run eval` prints a rank correlation on them, marked as such.
import type { Signal } from '../../lambdas/domain/signal';
export { spearman } from './report';

export type AlertLabel = 'critical' | 'warning' | 'info';
export type TicketLabel = 'high' | 'medium' | 'low';

export interface AlertCase {
  name: string;
  summary: string;
  description: string;
  label: AlertLabel;
}

export interface TicketCase {
  title: string;
  description: string;
  label: TicketLabel;
  /** The category the text supports, when it says more than "a task". */
  category?: 'incident' | 'security' | 'support' | 'task';
}

const TEMPLATE_TAIL = '\n  VALUE = {{ $value }}\n  LABELS = {{ $labels }}';

export const ALERT_CASES: readonly AlertCase[] = [
  // ---- critical ----
  {
    name: 'ApiGatewayDown',
    summary: 'API gateway is down',
    description:
      'The API gateway on {{ $labels.instance }} has not answered its health check for 2 minutes.' + TEMPLATE_TAIL,
    label: 'critical',
  },
  {
    name: 'ScrapeTargetGone',
    summary: 'Scrape target disappeared',
    description:
      'Target {{ $labels.instance }} of job {{ $labels.job }} has disappeared. The exporter may have crashed.',
    label: 'critical',
  },
  {
    name: 'NodeMemoryExhausted',
    summary: 'Node out of memory',
    description: 'Node {{ $labels.instance }} has less than 5% memory available (current value: {{ $value }}%).',
    label: 'critical',
  },
  {
    name: 'DataVolumeFull',
    summary: 'Volume full on {{ $labels.instance }}',
    description: 'The data volume has no space left. Writes are failing.',
    label: 'critical',
  },
  {
    name: 'DiskFillsWithinHours',
    summary: 'Disk will fill within 4 hours',
    description:
      'At the current write rate {{ $labels.mountpoint }} on {{ $labels.instance }} will run out of space within the next 4 hours.',
    label: 'critical',
  },
  {
    name: 'ContainerOomKilled',
    summary: 'Container OOM killed',
    description: 'Container {{ $labels.container }} in pod {{ $labels.pod }} was OOMKilled.',
    label: 'critical',
  },
  {
    name: 'ReplicationStopped',
    summary: 'Database replication stopped',
    description:
      'Replication on replica {{ $labels.instance }} has stopped: the SQL thread is not running.' + TEMPLATE_TAIL,
    label: 'critical',
  },
  {
    name: 'ClusterQuorumLost',
    summary: 'Cluster lost quorum',
    description: 'Only {{ $value }} of 5 members are healthy; the cluster has no quorum and cannot accept writes.',
    label: 'critical',
  },
  {
    name: 'EtcdMemberNoLeader',
    summary: 'etcd member has no leader',
    description: 'Member {{ $labels.instance }} of cluster {{ $labels.job }} has no leader.',
    label: 'critical',
  },
  {
    name: 'TlsCertificateExpired',
    summary: 'TLS certificate expired',
    description: 'The certificate for {{ $labels.host }} has expired. Clients can no longer connect.',
    label: 'critical',
  },
  {
    name: 'PodCrashLooping',
    summary: 'Pod is crash looping',
    description: 'Pod {{ $labels.namespace }}/{{ $labels.pod }} keeps restarting (CrashLoopBackOff).',
    label: 'critical',
  },
  {
    name: 'NightlyBackupFailed',
    summary: 'Backup failed',
    description: 'The nightly database backup failed. There is no backup from the last 48 hours.',
    label: 'critical',
  },
  {
    name: 'KubeNodeNotReady',
    summary: 'Node not ready',
    description: '{{ $labels.node }} has been unready for more than 10 minutes.',
    label: 'critical',
  },
  {
    name: 'FilesystemReadOnly',
    summary: 'Filesystem is read-only',
    description: '{{ $labels.device }} on {{ $labels.instance }} was remounted read-only after I/O errors.',
    label: 'critical',
  },
  {
    name: 'MostRequestsFailing',
    summary: 'Most requests to {{ $labels.service }} fail',
    description: 'More than 50% of requests return 5xx errors.' + TEMPLATE_TAIL,
    label: 'critical',
  },
  {
    name: 'SplitBrainDetected',
    summary: 'Split brain detected',
    description: 'Two nodes both claim to be primary; data may diverge.',
    label: 'critical',
  },
  {
    name: 'SearchClusterRed',
    summary: 'Search cluster health is RED',
    description: 'Some primary shards are unassigned and their data cannot be queried.',
    label: 'critical',
  },
  {
    name: 'PostgresUnreachable',
    summary: 'PostgreSQL unreachable',
    description: 'Cannot connect to PostgreSQL on {{ $labels.instance }}.',
    label: 'critical',
  },
  {
    name: 'NoHealthyUpstream',
    summary: 'No healthy backends for {{ $labels.service }}',
    description: 'Every backend behind the load balancer fails its health check.',
    label: 'critical',
  },
  {
    name: 'PageChecksumFailure',
    summary: 'Data corruption detected',
    description: 'Page checksum verification failed on {{ $labels.instance }}.',
    label: 'critical',
  },
  {
    name: 'InstanceDown',
    summary: 'Instance {{ $labels.instance }} down',
    description: '{{ $labels.instance }} of job {{ $labels.job }} has been down for more than 5 minutes.',
    label: 'critical',
  },

  // ---- warning ----
  {
    name: 'HostHighCpu',
    summary: 'High CPU usage',
    description: 'CPU usage on {{ $labels.instance }} is above 80% for 15 minutes.' + TEMPLATE_TAIL,
    label: 'warning',
  },
  {
    name: 'HostMemoryHigh',
    summary: 'Memory usage high',
    description: 'Memory usage on {{ $labels.instance }} is {{ $value | humanizePercentage }}.',
    label: 'warning',
  },
  {
    name: 'DiskFillsInDays',
    summary: 'Disk predicted to fill in 4 days',
    description: 'Based on the last 6 hours, {{ $labels.mountpoint }} will fill up in about 4 days.',
    label: 'warning',
  },
  {
    name: 'RequestLatencyHigh',
    summary: 'High request latency',
    description: 'p99 latency of {{ $labels.service }} is above its objective.',
    label: 'warning',
  },
  {
    name: 'ErrorRateElevated',
    summary: 'Error rate elevated',
    description: '{{ $value }}% of requests on {{ $labels.route }} fail (threshold 2%).',
    label: 'warning',
  },
  {
    name: 'ReplicaLagging',
    summary: 'Replication lag high',
    description: 'Replica {{ $labels.instance }} is {{ $value }} seconds behind the primary.',
    label: 'warning',
  },
  {
    name: 'DeploymentDegraded',
    summary: 'Deployment has fewer replicas than desired',
    description: 'Deployment {{ $labels.deployment }} is degraded: not all replicas are available.',
    label: 'warning',
  },
  {
    name: 'ContainerRestartingOften',
    summary: 'Container restarting frequently',
    description: 'Container {{ $labels.container }} restarted more than 3 times in the last hour.',
    label: 'warning',
  },
  {
    name: 'QueueBacklogGrowing',
    summary: 'Queue backlog growing',
    description: 'Messages in {{ $labels.queue }} pile up faster than the consumers process them.',
    label: 'warning',
  },
  {
    name: 'CertificateExpiringSoon',
    summary: 'Certificate expires soon',
    description: 'The TLS certificate for {{ $labels.host }} expires in 14 days.',
    label: 'warning',
  },
  {
    name: 'CpuThrottled',
    summary: 'CPU throttling',
    description: 'Container {{ $labels.container }} is throttled for 40% of its periods.',
    label: 'warning',
  },
  {
    name: 'SlowQueries',
    summary: 'Slow queries',
    description: 'The database logs {{ $value }} slow queries per second.',
    label: 'warning',
  },
  {
    name: 'PodsPending',
    summary: 'Pod stuck in Pending',
    description: 'Pod {{ $labels.pod }} has been pending for longer than 15 minutes.',
    label: 'warning',
  },
  {
    name: 'ClockSkew',
    summary: 'Clock skew detected',
    description: 'The clock on {{ $labels.instance }} is out of sync by more than 50 ms.',
    label: 'warning',
  },
  {
    name: 'ConnectionsNearLimit',
    summary: 'Connections near the limit',
    description: '{{ $labels.instance }} uses {{ $value }}% of its maximum connections.',
    label: 'warning',
  },
  {
    name: 'LowDiskSpace',
    summary: 'Low disk space',
    description: 'Less than 20% disk space left on {{ $labels.mountpoint }}.',
    label: 'warning',
  },
  {
    name: 'SwapUsageHigh',
    summary: 'Swap usage high',
    description: 'The host is swapping heavily; performance may suffer.',
    label: 'warning',
  },
  {
    name: 'ConsumerGroupLag',
    summary: 'Consumer group lag',
    description: 'Consumer group {{ $labels.group }} is lagging behind the topic.',
    label: 'warning',
  },
  {
    name: 'ScrapeSlow',
    summary: 'Scrapes are slow',
    description: 'Scrapes of job {{ $labels.job }} take longer than the interval.',
    label: 'warning',
  },

  // ---- info ----
  {
    name: 'ConfigReloaded',
    summary: 'Configuration reloaded',
    description: 'The configuration of {{ $labels.job }} was reloaded.',
    label: 'info',
  },
  {
    name: 'InstanceRestarted',
    summary: 'Instance restarted',
    description: '{{ $labels.instance }} restarted; uptime is {{ $value }} seconds.',
    label: 'info',
  },
  {
    name: 'NewVersionDeployed',
    summary: 'New version deployed',
    description: 'Version {{ $labels.version }} of {{ $labels.app }} was rolled out.',
    label: 'info',
  },
  {
    name: 'AutoscalerScaledUp',
    summary: 'Cluster scaled up',
    description: 'The autoscaler added {{ $value }} nodes to pool {{ $labels.pool }}.',
    label: 'info',
  },
  {
    name: 'AlertingHeartbeat',
    summary: 'Alerting pipeline heartbeat',
    description:
      'This alert is always firing. It exists to show that the alerting pipeline works end to end; it is never critical and needs no action.',
    label: 'info',
  },
  {
    name: 'NodeUnderutilized',
    summary: 'Node underutilized',
    description: 'CPU usage on {{ $labels.instance }} has stayed below 10% for a week; consider a smaller machine.',
    label: 'info',
  },
  {
    name: 'WeeklyCostSummary',
    summary: 'Weekly cost summary',
    description: 'Informational: cloud spend this week is {{ $value }} USD.',
    label: 'info',
  },
  {
    name: 'MaintenanceScheduled',
    summary: 'Maintenance window scheduled',
    description: 'Maintenance for {{ $labels.cluster }} is scheduled for Sunday. No action needed.',
    label: 'info',
  },
  {
    name: 'CronJobCompleted',
    summary: 'Cron job completed',
    description: 'Job {{ $labels.job }} finished successfully in {{ $value }} seconds.',
    label: 'info',
  },
  {
    name: 'InfoLevelInhibitor',
    summary: 'Inhibits info-level alerts',
    description:
      'Fires whenever no warning or critical alert is active, to silence info-level notifications. Not an incident.',
    label: 'info',
  },
  {
    name: 'NodeRebooted',
    summary: 'Node rebooted',
    description: 'Host {{ $labels.instance }} rebooted after a kernel update.',
    label: 'info',
  },
  {
    name: 'FeatureFlagChanged',
    summary: 'Feature flag changed',
    description: 'Flag {{ $labels.flag }} was set to {{ $value }}.',
    label: 'info',
  },
  {
    name: 'CertificateRenewed',
    summary: 'Certificate renewed',
    description: 'The certificate for {{ $labels.host }} was renewed and is valid for 90 days.',
    label: 'info',
  },
  {
    name: 'VersionsDiffer',
    summary: 'Component versions differ',
    description: 'Different versions of {{ $labels.component }} are running; for information only.',
    label: 'info',
  },
];

export const TICKET_CASES: readonly TicketCase[] = [
  // ---- high ----
  {
    title: 'App crashes on startup',
    description: 'Since 4.2 the desktop app crashes immediately after launch. Blocker for all users.',
    label: 'high',
    category: 'support',
  },
  {
    title: 'Saving a draft deletes the previous version',
    description: 'Data loss: after saving, the earlier text is gone and cannot be recovered.',
    label: 'high',
    category: 'incident',
  },
  {
    title: 'XSS in the comment field',
    description: 'A script tag in a comment is executed for every reader. Security vulnerability.',
    label: 'high',
    category: 'security',
  },
  {
    title: 'SQL injection in the search endpoint',
    description: 'The q parameter is concatenated into the query.',
    label: 'high',
    category: 'security',
  },
  {
    title: 'Login broken in production',
    description: 'Nobody can log in since the last deploy; the login page returns 500.',
    label: 'high',
    category: 'incident',
  },
  {
    title: 'NullPointerException when opening a project',
    description:
      'Opening any project throws:\njava.lang.NullPointerException\n  at com.example.Loader.open(Loader.java:42)\nThe editor then hangs.',
    label: 'high',
    category: 'support',
  },
  {
    title: 'Import corrupts the database file',
    description: 'After importing a CSV the database file is corrupted and the app refuses to start.',
    label: 'high',
    category: 'incident',
  },
  {
    title: 'Regression: checkout fails for every order',
    description: 'Since yesterday every checkout fails with an error.',
    label: 'high',
    category: 'support',
  },

  // ---- medium ----
  {
    title: 'Export button does nothing',
    description: 'Clicking Export in the report view has no effect. Steps to reproduce: open a report, click Export.',
    label: 'medium',
    category: 'support',
  },
  {
    title: 'Wrong total in the monthly report',
    description: 'The sum shown is incorrect when a month has refunds. Expected 120, actual 150.',
    label: 'medium',
    category: 'support',
  },
  {
    title: 'Search ignores accents',
    description: 'Searching for "cafe" does not find "café". Expected behavior: both match.',
    label: 'medium',
    category: 'support',
  },
  {
    title: 'Error when uploading a PNG larger than 5 MB',
    description: 'Upload fails with an error message "request too large".',
    label: 'medium',
    category: 'support',
  },
  {
    title: 'Date picker shows the wrong week',
    description: 'In the German locale the week starts on Sunday instead of Monday.',
    label: 'medium',
  },
  {
    title: 'Notifications are sent twice',
    description: 'Users receive every e-mail notification twice since the migration.',
    label: 'medium',
    category: 'support',
  },

  // ---- low ----
  {
    title: 'Typo in the settings dialog',
    description: '"Prefrences" should read "Preferences".',
    label: 'low',
    category: 'task',
  },
  {
    title: 'Button misaligned on the profile page',
    description: 'Cosmetic: the Save button is 2px lower than Cancel.',
    label: 'low',
  },
  {
    title: 'Add dark mode',
    description: 'Feature request: it would be nice to have a dark theme.',
    label: 'low',
    category: 'task',
  },
  {
    title: 'Update the footer year',
    description: 'Change 2025 to 2026 in the footer.',
    label: 'low',
    category: 'task',
  },
  {
    title: 'Improve tooltip wording',
    description: 'Minor: the tooltip on the filter icon could be clearer.',
    label: 'low',
    category: 'task',
  },
  {
    title: 'Refactor the settings module',
    description: 'Split settings.ts into smaller files; no behaviour change.',
    label: 'low',
    category: 'task',
  },
  {
    title: 'Document the export API',
    description: 'Add a section on export options to the developer guide.',
    label: 'low',
    category: 'task',
  },
  {
    title: 'Allow sorting the user list by last login',
    description: 'Enhancement: an option to sort by last login would help admins.',
    label: 'low',
    category: 'task',
  },
];

/** An alert as the service may receive it: the rule's name as subject, summary and description as body. */
export function alertSignal(c: AlertCase, source: 'internal' | 'email' = 'internal'): Signal {
  return {
    workspace_id: 'ws_eval',
    source,
    received_at: '2026-03-02T09:59:00Z',
    subject: c.name,
    body: `${c.summary}\n${c.description}`,
  };
}

/** A bug or task as a tracker sends it: title as subject, description as body. */
export function ticketSignal(c: TicketCase): Signal {
  return {
    workspace_id: 'ws_eval',
    source: 'task',
    received_at: '2026-03-02T09:59:00Z',
    subject: c.title,
    body: c.description,
  };
}

export const ALERT_LEVEL: Record<AlertLabel, number> = { critical: 3, warning: 2, info: 1 };
export const TICKET_LEVEL: Record<TicketLabel, number> = { high: 3, medium: 2, low: 1 };
