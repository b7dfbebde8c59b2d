import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '@rota/contract';
import { alertKeys } from '../src/features/alerts';
import { liveEventKeys } from '../src/features/live/live-invalidation';

describe('an alert live event', () => {
  it('makes the bell and an open delivery log refetch', () => {
    const event: LiveEvent = {
      type: 'alert',
      rota_alert_events_id: 3,
      rota_robots_id: null,
      event_type: 'agent.lost',
    };
    expect(liveEventKeys(event)).toEqual([alertKeys.feed(), alertKeys.deliveries()]);
  });
});
