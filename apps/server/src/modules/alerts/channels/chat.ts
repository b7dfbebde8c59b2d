import { detailLinesOf, headlineOf, linkLabelOf, type AlertMessage } from '../alert-message.js';
import { postJson, type OutboundOptions, type OutboundResult } from './outbound-http.js';

/** Slack's mrkdwn: `&`, `<`, `>` are its only control characters. */
const mrkdwn = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Slack incoming-webhook message: a plain `text` fallback and blocks with the link. */
export function slackBody(message: AlertMessage): string {
  const headline = headlineOf(message);
  const link = `<${message.url}|${mrkdwn(linkLabelOf(message))}>`;
  return JSON.stringify({
    text: `${mrkdwn(headline)} ${link}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${mrkdwn(headline)}*` } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: detailLinesOf(message).map(mrkdwn).join('\n') },
      },
      { type: 'section', text: { type: 'mrkdwn', text: link } },
    ],
  });
}

/** A Teams workflow/incoming-webhook message: one Adaptive Card with an "open" action. */
export function teamsBody(message: AlertMessage): string {
  return JSON.stringify({
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: {
          type: 'AdaptiveCard',
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: headlineOf(message), weight: 'Bolder', wrap: true },
            ...detailLinesOf(message).map((line) => ({
              type: 'TextBlock',
              text: line,
              wrap: true,
            })),
          ],
          actions: [{ type: 'Action.OpenUrl', title: linkLabelOf(message), url: message.url }],
        },
      },
    ],
  });
}

const JSON_HEADERS = { 'Content-Type': 'application/json', 'User-Agent': 'Rota' };

export const sendSlack = (url: string, message: AlertMessage, options?: OutboundOptions) =>
  postJson(url, slackBody(message), JSON_HEADERS, options) as Promise<OutboundResult>;

export const sendTeams = (url: string, message: AlertMessage, options?: OutboundOptions) =>
  postJson(url, teamsBody(message), JSON_HEADERS, options) as Promise<OutboundResult>;
