// Phase 2 of scoring: reasons from metadata (VIP, customer tier, tags, severity) and from the kind of sender.
import { REASON_CODES, infoOf } from './reason-codes';
import {
  authorSeverity,
  BULK_LOCAL,
  NO_REPLY_LOCAL,
  bulkSubdomain,
  TAGS,
  TIER_FREE,
  TIER_PAID,
  TIER_VIP,
  own,
  shortString,
  stringList,
  type Meta,
  type SenderInfo,
  type TagKind,
  withAsciiDomain,
} from './metadata';
import type { Draft } from './draft';

/** Appends the metadata and sender reasons (`sender`: the signal's, parsed) to `drafts`; says whether the partner vouches for the sender. */
export function metadataDrafts(
  drafts: Draft[],
  sender: SenderInfo | null,
  md: Meta | null,
): { knownCustomer: boolean } {
  let vip = false;
  const vipFlag = own(md, 'vip');
  if (vipFlag === true || vipFlag === 'true' || vipFlag === 1) {
    drafts.push({ code: 'VIP_SENDER', weight: 15, message: 'metadata.vip is true' });
    vip = true;
  } else if (sender) {
    for (const entry of stringList(own(md, 'vip_senders'), 200)) {
      // Composed, its domain in ASCII form, as parseSender reads the sender.
      const e = withAsciiDomain(entry.replace(/^.*<\s*|\s*>.*$/g, '').normalize('NFC'));
      if (e === sender.address || e === `@${sender.domain}` || (!e.includes('@') && e === sender.domain)) {
        drafts.push({ code: 'VIP_SENDER', weight: 15, message: 'sender is listed in metadata.vip_senders' });
        vip = true;
        break;
      }
    }
  }

  const tier = shortString(own(md, 'customer_tier'), 40);
  let knownCustomer = vip;
  if (tier !== null) {
    if (TIER_VIP.has(tier)) {
      drafts.push({ code: 'VIP_CUSTOMER', weight: 15, message: `metadata.customer_tier is ${tier}` });
      knownCustomer = true;
    } else if (TIER_PAID.has(tier)) {
      drafts.push({ code: 'CUSTOMER_TIER_PAID', weight: 5, message: `metadata.customer_tier is ${tier} (paid)` });
      knownCustomer = true;
    } else if (TIER_FREE.has(tier)) {
      drafts.push({ code: 'CUSTOMER_TIER_FREE', weight: -5, message: `metadata.customer_tier is ${tier}` });
    }
  }

  let tagUrgent = false;
  let topicTag: TopicTag | null = null;
  for (const raw of stringList(own(md, 'tags'))) {
    const name = raw.replace(/[\s_]+/g, '-');
    const kind = TAGS.get(name);
    if (kind === undefined) continue;
    if (kind === 'urgent') {
      if (!tagUrgent) drafts.push({ code: 'TAG_URGENT', weight: 10, message: `metadata.tags includes ${name}` });
      tagUrgent = true;
    } else if (kind === 'vip') {
      if (!vip) drafts.push({ code: 'VIP_SENDER', weight: 15, message: 'metadata.tags includes vip' });
      vip = true;
      knownCustomer = true;
    } else if (topicTag === null || strongerTopic({ name, kind }, topicTag)) {
      topicTag = { name, kind };
    }
  }
  if (topicTag) {
    drafts.push({
      code: 'TAG_TOPIC',
      weight: topicTag.kind.weight,
      message: `metadata.tags includes ${topicTag.name}`,
      category: topicTag.kind.category,
      problem: topicTag.kind.problem,
    });
  }

  // The author's severity (metadata.severity, else metadata.priority) beats severity words in the text.
  const author = authorSeverity(md);
  if (author) {
    // The author's own severity label also replaces the severity class read from the alert's wording.
    for (let k = drafts.length - 1; k >= 0; k--)
      if (drafts[k].code.startsWith('SEVERITY_') || infoOf(drafts[k].code).severityClass === true) drafts.splice(k, 1);
    drafts.push({
      code: author.code,
      weight: REASON_CODES[author.code].max,
      message: `metadata.${author.key} is ${author.label}`,
      authorLabel: true,
    });
  } else {
    // Several severity words in the text: keep the highest.
    let top: Draft | null = null;
    let severities = 0;
    for (const d of drafts) {
      if (!d.code.startsWith('SEVERITY_')) continue;
      severities++;
      if (top === null || d.weight > top.weight) top = d;
    }
    if (severities > 1) {
      for (let k = drafts.length - 1; k >= 0; k--)
        if (drafts[k].code.startsWith('SEVERITY_') && drafts[k] !== top) drafts.splice(k, 1);
    }
  }

  // Sender kind.
  if (sender) {
    if (NO_REPLY_LOCAL.test(sender.local))
      drafts.push({ code: 'NO_REPLY_SENDER', weight: -15, message: 'sender is a no-reply or system address' });
    else if (BULK_LOCAL.test(sender.local) || bulkSubdomain(sender.domain))
      drafts.push({ code: 'BULK_SENDER', weight: -5, message: 'sender is a bulk-mail address' });
  }

  return { knownCustomer };
}

type TopicTag = { name: string; kind: Exclude<TagKind, 'urgent' | 'vip'> };
/**
 * The topic tag that wins, whatever the tags' order: a problem topic before any other (a message tagged `security`
 * and `spam` is not archived on a tag), then the larger weight either way, then the name.
 */
function strongerTopic(a: TopicTag, b: TopicTag): boolean {
  if (a.kind.problem !== b.kind.problem) return a.kind.problem;
  const wa = Math.abs(a.kind.weight);
  const wb = Math.abs(b.kind.weight);
  return wa !== wb ? wa > wb : a.name < b.name;
}
