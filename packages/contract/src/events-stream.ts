/**
 * Live updates for the console: `GET /api/rota/events/api/v1/stream` (Server-Sent Events,
 * `Authorization: Bearer <session token>`), scoped to the selected client. Each event's
 * `event:` field is its `type`; `data:` is the event's JSON (`liveEventSchema`, events.ts, apart
 * because the console's shell opens the stream but only the stream's reader needs the schema).
 * Events say what changed, not the whole row: the console refetches what it shows.
 */
export const EVENTS_STREAM_PATH = '/api/rota/events/api/v1/stream';
