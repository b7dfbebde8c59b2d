import { describe, expect, it } from 'vitest';
import robotsEn from '../src/features/robots/locales/en.json';
import robotsPt from '../src/features/robots/locales/pt.json';
import tasksEn from '../src/features/tasks/locales/en.json';
import tasksPt from '../src/features/tasks/locales/pt.json';
import activityEn from '../src/features/activity/locales/en.json';
import activityPt from '../src/features/activity/locales/pt.json';
import dashboardEn from '../src/features/dashboard/locales/en.json';
import dashboardPt from '../src/features/dashboard/locales/pt.json';
import liveEn from '../src/features/live/locales/en.json';
import livePt from '../src/features/live/locales/pt.json';
import calendarsEn from '../src/features/calendars/locales/en.json';
import calendarsPt from '../src/features/calendars/locales/pt.json';
import alertsEn from '../src/features/alerts/locales/en.json';
import alertsPt from '../src/features/alerts/locales/pt.json';
import apiKeysEn from '../src/features/api-keys/locales/en.json';
import apiKeysPt from '../src/features/api-keys/locales/pt.json';
import triggersEn from '../src/features/triggers/locales/en.json';
import triggersPt from '../src/features/triggers/locales/pt.json';
import accountEn from '../src/features/account/locales/en.json';
import accountPt from '../src/features/account/locales/pt.json';
import en from '../src/locales/en.json';
import pt from '../src/locales/pt.json';

function flatten(tree: object, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') Object.assign(out, flatten(value as object, path));
    else out[path] = value;
  }
  return out;
}

describe.each([
  ['robots', robotsPt, robotsEn],
  ['tasks', tasksPt, tasksEn],
  ['activity', activityPt, activityEn],
  ['dashboard', dashboardPt, dashboardEn],
  ['live', livePt, liveEn],
  ['calendars', calendarsPt, calendarsEn],
  ['alerts', alertsPt, alertsEn],
  ['account', accountPt, accountEn],
  ['apiKeys', apiKeysPt, apiKeysEn],
  ['triggers', triggersPt, triggersEn],
  ['common', pt.common, en.common],
])('the %s strings', (_name, ptTree, enTree) => {
  const flatPt = flatten(ptTree);
  const flatEn = flatten(enTree);

  it('have the same keys in pt and en', () => {
    expect(Object.keys(flatPt).sort()).toEqual(Object.keys(flatEn).sort());
  });

  it('have no empty text', () => {
    for (const [key, value] of [...Object.entries(flatPt), ...Object.entries(flatEn)]) {
      expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
    }
  });
});

describe('texts end-to-end tests rely on', () => {
  it('name the primary actions and tabs', () => {
    expect(robotsPt.list.new).toBe('Novo robô');
    expect(robotsEn.list.new).toBe('New robot');
    expect(robotsEn.detail.tabs).toEqual({
      overview: 'Overview',
      tasks: 'Tasks Robotics',
      versions: 'Versions',
    });
    expect([robotsEn.versions.current, robotsEn.versions.repository]).toEqual([
      'Current',
      'Repository',
    ]);
    expect(robotsPt.delete.title).toBe('Excluir o robô “{{name}}”?');
    expect(robotsEn.delete.title).toBe('Delete robot “{{name}}”?');
  });

  it('hold the dashboard categories and activity columns', () => {
    expect([
      dashboardEn.categories.process,
      dashboardEn.categories.failure,
      dashboardEn.categories.others,
      dashboardEn.categories.idle,
    ]).toEqual(['Process', 'Failure', 'Others', 'Idle']);
    expect(activityEn.status.processing).toBe('Processing');
    expect(activityEn.status.success).toBe('Success');
    expect(activityEn.columns.robot).toBe('Process name');
    expect(activityEn.columns.executor).toBe('Executor name');
  });
});
