import { tarGz } from './archives.js';

/**
 * A real robot package: `node main.js <mode> [arg]`. Modes: success (two stdout lines and one
 * stderr line), fail (exit 1), business (exit 3), hang (starts a grandchild that writes its pid
 * to grandchild.pid, then both wait forever), slow <seconds> (a line every 200 ms, then exit 0),
 * tasks (takes tasks through the robot API until none is left, finishing each as success),
 * evidence (uploads a 1×1 PNG and a CSV through the robot API's artifact/upload).
 */
const MAIN_JS = String.raw`
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const [mode, arg] = process.argv.slice(2);
console.log('robot start ' + mode + ' execution ' + process.env.ROTA_EXECUTION_ID);
console.error('a warning on stderr');
async function api(path) {
  const res = await fetch(process.env.ROTA_API_URL + '/rota/run/api/v1/' + path.name, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.ROTA_EXECUTION_TOKEN },
    body: JSON.stringify(path.body || {}),
  });
  if (res.status >= 300) throw new Error(path.name + ' answered ' + res.status);
  return res.json();
}
async function main() {
  if (mode === 'success') { console.log('line 2 of the robot'); return 0; }
  if (mode === 'fail') { console.error('failed hard'); return 1; }
  if (mode === 'business') { console.error('invoice rejected'); return 3; }
  if (mode === 'hang') {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    fs.writeFileSync('grandchild.pid', String(child.pid));
    console.log('hanging');
    setInterval(() => {}, 1000);
    return new Promise(() => {});
  }
  if (mode === 'slow') {
    const until = Date.now() + Number(arg || 3) * 1000;
    let i = 0;
    while (Date.now() < until) { console.log('tick ' + ++i); await new Promise((r) => setTimeout(r, 200)); }
    console.log('slow done');
    return 0;
  }
  if (mode === 'tasks') {
    for (;;) {
      const { data } = await api({ name: 'task/next' });
      if (!data) break;
      console.log('task ' + data.label);
      await api({ name: 'task/finish', body: { id: data.rota_tasks_id, status: 'success' } });
    }
    const params = await api({ name: 'parameter/index' });
    console.log('parameters ' + params.data.map((p) => p.name).join(','));
    return 0;
  }
  if (mode === 'evidence') {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const files = [
      ['screen.png', new Blob([png], { type: 'image/png' }), undefined],
      ['report.csv', new Blob(['invoice,total\n42,10.50\n'], { type: 'text/csv' }), 'Report of run.csv'],
    ];
    for (const [fileName, blob, name] of files) {
      const form = new FormData();
      if (name) form.set('name', name);
      form.set('file', blob, fileName);
      const res = await fetch(process.env.ROTA_API_URL + '/rota/run/api/v1/artifact/upload', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + process.env.ROTA_EXECUTION_TOKEN },
        body: form,
      });
      if (res.status !== 201) throw new Error('artifact/upload answered ' + res.status + ' ' + (await res.text()));
      console.log('uploaded ' + (await res.json()).data.name);
    }
    return 0;
  }
  return 2;
}
main().then((code) => process.exit(code), (error) => { console.error(String(error)); process.exit(1); });
`;

export const robotPackage = () => tarGz([{ name: 'main.js', data: MAIN_JS }]);
