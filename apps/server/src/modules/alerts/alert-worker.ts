import {
  ALERT_TEST_EVENT,
  type AlertChannelType,
  type AlertEventType,
  type Language,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { Mailer } from '../../lib/mailer.js';
import { DESTINATION_NOT_ALLOWED, type OutboundPolicy } from '../../lib/outbound-address.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { EnginePublisher } from '../dispatch/live-events.js';
import { pathOf, type AlertMessage } from './alert-message.js';
import { sendSlack, sendTeams } from './channels/chat.js';
import { sendEmail } from './channels/email.js';
import type { DnsLookup, OutboundResult } from './channels/outbound-http.js';
import { sendWebhook } from './channels/webhook.js';
import { findAlertById, type AlertRow } from './repository.js';
import {
  activeRules,
  addToDeliveries,
  lockDueDeliveries,
  lockUnfannedEvents,
  markFannedOut,
  recordAttempt,
  type LockedDelivery,
  type PendingEvent,
} from './worker-repository.js';

const BATCH = 100;
const SEND_BATCH = 20;
const SECOND = 1000;
/** After the 1st, 2nd, 3rd, 4th failed attempt; hourly after that. */
const RETRY_DELAYS_MS = [10 * SECOND, 30 * SECOND, 120 * SECOND, 600 * SECOND];
const HOURLY_MS = 3600 * SECOND;
/** Past this after the first attempt, a delivery that still fails is given up. */
const GIVE_UP_MS = 24 * HOURLY_MS;

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

export interface AlertWorkerOptions {
  clock?: Clock;
  publicUrl: string;
  mailer: Mailer;
  secretBox: SecretBox;
  publisher: EnginePublisher;
  log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  intervalMs?: number;
  /** Each attempt's outcome by channel (the metrics count them). */
  onOutcome?: (outcome: DeliveryOutcome, channel: AlertChannelType) => void;
  /** Name resolution of outbound requests (a test seam; the guard applies after it). */
  lookup?: DnsLookup;
  /** Which addresses webhooks and chat channels may reach; none given: public unicast only. */
  outbound?: OutboundPolicy;
}

/** When the next attempt goes, after `attempts` failed ones; null: give up. */
export function nextAttemptAt(attempts: number, firstAttempt: Date, now: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1] ?? HOURLY_MS;
  const next = new Date(now.getTime() + delay);
  return next.getTime() > firstAttempt.getTime() + GIVE_UP_MS ? null : next;
}

/** What a failed delivery's log entry says, whatever went wrong on the way. */
export const NOT_DELIVERED = 'not_delivered';

/**
 * What the delivery log keeps of an attempt, for anyone who may read the log: the answer's
 * status when one came (2xx to 5xx), and of a failure only whether the destination was not
 * allowed or the message was not delivered. Refused, reset and timed out stay in the server's
 * log: told apart to the user, they map which ports of which hosts listen behind this server.
 */
export function loggedOutcomeOf(result: OutboundResult): {
  response_code: number | null;
  last_error: string | null;
} {
  const answered = result.status !== null && result.status >= 200 && result.status <= 599;
  const response_code = answered ? result.status : null;
  if (result.ok) return { response_code, last_error: null };
  return {
    response_code,
    last_error: result.error === DESTINATION_NOT_ALLOWED ? DESTINATION_NOT_ALLOWED : NOT_DELIVERED,
  };
}

/**
 * The alert outbox's worker. Each pass fans new events out to the matching rules'
 * deliveries (folding repeats), then sends the due deliveries. Every instance runs one; row
 * locks (SKIP LOCKED) keep two from handling one event or sending one delivery at once.
 */
export class AlertWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly options: AlertWorkerOptions,
  ) {}

  private now(): Date {
    return (this.options.clock ?? systemClock).now();
  }

  /** One pass: fan out, then send what is due. Tests call it directly. */
  async tick(): Promise<void> {
    while ((await this.fanOut()) === BATCH && !this.stopped);
    await this.deliverDue();
  }

  /** Creates or folds the deliveries of a batch of new events; answers how many it took. */
  async fanOut(): Promise<number> {
    const now = this.now();
    const events = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const pending = await lockUnfannedEvents(tx, BATCH);
      if (pending.length === 0) return pending;
      const rules = await activeRules(tx, [...new Set(pending.map((e) => e.client))]);
      for (const event of pending) {
        for (const rule of rules) {
          if (rule.client !== event.client || !rule.events.includes(event.type)) continue;
          const anyRobot =
            event.type.startsWith('agent.') ||
            rule.robot_ids.length === 0 ||
            (event.robot !== null && rule.robot_ids.includes(event.robot));
          if (anyRobot) await addToDeliveries(tx, event.client, rule.id, event, now);
        }
      }
      await markFannedOut(
        tx,
        pending.map((e) => e.id),
      );
      return pending;
    });
    // The bell lists every alertable event of the client, matched by a rule or not: one live
    // event per client, robot and type (a member of teams hears only of their robots' events,
    // a user only of the types their permissions show).
    const newest = new Map<string, PendingEvent>();
    for (const e of events) newest.set(`${e.client}:${e.robot}:${e.type}`, e);
    for (const n of newest.values()) {
      this.options.publisher.live(n.client, {
        type: 'alert',
        rota_alert_events_id: n.id,
        rota_robots_id: n.robot,
        event_type: n.type as AlertEventType,
      });
    }
    return events.length;
  }

  /** Sends due deliveries, a batch at a time; answers how many were attempted. */
  async deliverDue(): Promise<number> {
    let total = 0;
    while (!this.stopped) {
      const locked = await lockDueDeliveries(this.db, this.now(), SEND_BATCH);
      await Promise.all(locked.map((d) => this.attempt(d)));
      total += locked.length;
      if (locked.length < SEND_BATCH) break;
    }
    return total;
  }

  /** Attempts one delivery now (the "send test" button), whatever its schedule. */
  async attemptNow(id: number): Promise<void> {
    const [locked] = await lockDueDeliveries(this.db, this.now(), 1, id);
    if (locked) await this.attempt(locked);
  }

  private async attempt(delivery: LockedDelivery): Promise<void> {
    const rule = await findAlertById(this.db, delivery.rule);
    if (!rule) return; // deleted meanwhile: its deliveries went with it
    const channel = rule.channel_type as AlertChannelType;
    let result: OutboundResult;
    try {
      result = await this.send(rule, this.messageOf(rule, delivery));
    } catch (error) {
      this.options.log.warn({ err: error, delivery: delivery.id }, 'alert delivery failed');
      result = { ok: false, status: null, error: 'internal error' };
    }
    const now = this.now();
    const first = delivery.first_attempt_at ? new Date(delivery.first_attempt_at) : now;
    // A test is tried once: retried for a day, "send test" would be a slow port scan.
    const test = delivery.event_type === ALERT_TEST_EVENT;
    const next = result.ok || test ? null : nextAttemptAt(delivery.attempts + 1, first, now);
    const status = result.ok ? 'delivered' : next ? 'pending' : 'failed';
    if (!result.ok) {
      // The rule's URL stays out: a Slack or Teams URL is itself the secret.
      this.options.log.warn(
        {
          delivery: delivery.id,
          rule: rule.rota_alerts_id,
          channel,
          test,
          status: result.status,
          detail: result.error,
        },
        'alert not delivered',
      );
    }
    await recordAttempt(this.db, delivery.id, {
      status,
      ...loggedOutcomeOf(result),
      next_attempt_at: next,
      first_attempt_at: first,
      now,
    });
    this.options.onOutcome?.(
      status === 'delivered' ? 'delivered' : status === 'failed' ? 'failed' : 'retry',
      channel,
    );
  }

  private messageOf(rule: AlertRow, delivery: LockedDelivery): AlertMessage {
    const data = delivery.data ?? {};
    const base = this.options.publicUrl.replace(/\/+$/, '');
    return {
      delivery_uid: delivery.delivery_uid,
      // A test has no event: its delivery stands for one.
      event_uid: delivery.event_uid ?? delivery.delivery_uid,
      type: delivery.event_type,
      occurred_at: new Date(delivery.occurred_at ?? delivery.created_at).toISOString(),
      rota_clients_id: delivery.client,
      rota_robots_id: delivery.robot,
      robot_name: delivery.robot_name,
      data,
      count: delivery.count,
      url: `${base}${pathOf(delivery.event_type, data)}`,
      language: (rule.language === 'pt' ? 'pt' : 'en') satisfies Language,
    };
  }

  private async send(rule: AlertRow, message: AlertMessage): Promise<OutboundResult> {
    const channel = rule.channel as { to?: string[]; url?: string };
    const secret = rule.channel_secret ? this.options.secretBox.open(rule.channel_secret) : null;
    const http = { lookup: this.options.lookup, policy: this.options.outbound };
    switch (rule.channel_type) {
      case 'email':
        return sendEmail(this.options.mailer, channel.to ?? [], message);
      case 'webhook':
        return sendWebhook(channel.url ?? '', secret ?? '', message, http);
      case 'slack':
        return sendSlack(secret ?? '', message, http);
      case 'teams':
        return sendTeams(secret ?? '', message, http);
      default:
        return { ok: false, status: null, error: `unknown channel ${rule.channel_type}` };
    }
  }

  start() {
    const interval = this.options.intervalMs ?? 1000;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch((err: unknown) => this.options.log.error({ err }, 'alert worker pass failed'))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(loop, interval);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
