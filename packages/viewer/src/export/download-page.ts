/**
 * The download page's script (built to /embed/assets/download.js, loaded by download.html; see
 * export/deliver.ts). The page is a popup that escaped the viewer's sandbox: it accepts one file from its
 * opener (same origin only), builds the workbook for Excel exports (exceljs, loaded only here), saves the
 * file through a download link and closes itself.
 */
import ExcelJS from 'exceljs';
import { FILE, READY, type DownloadPayload } from './deliver.ts';

const status = document.getElementById('status') as HTMLElement;

async function workbook(sheets: Record<string, (string | number | boolean | null)[][]>): Promise<Blob> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
  }
  const buf = await wb.xlsx.writeBuffer();
  return new Blob([buf], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

let done = false;
addEventListener('message', (e: MessageEvent) => {
  const data = e.data as ({ type?: string } & DownloadPayload) | null;
  if (done || e.origin !== location.origin || e.source !== window.opener || data?.type !== FILE) return;
  done = true;
  // eslint-disable-next-line no-control-regex -- control characters are not allowed in file names
  const filename = String(data.filename).replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').slice(0, 120) || 'download';
  status.textContent = `Preparing ${filename}…`;
  void ('blob' in data ? Promise.resolve(data.blob) : workbook(data.sheets)).then((blob) => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = filename;
    document.body.append(a);
    a.click();
    status.textContent = `${filename} is downloading. This window closes by itself.`;
    setTimeout(() => window.close(), 4000);
  }, (err: Error) => {
    status.textContent = `The file could not be prepared: ${err.message}`;
  });
});

if (window.opener) (window.opener as Window).postMessage({ type: READY }, location.origin);
else status.textContent = 'This page saves files exported from the network viewer; open it from the viewer’s Export menu.';
