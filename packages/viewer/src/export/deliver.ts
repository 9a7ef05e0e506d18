/**
 * How an export reaches the user from inside the sandboxed iframe (sandbox `allow-scripts
 * allow-same-origin allow-popups allow-popups-to-escape-sandbox`, no `allow-downloads`: the iframe itself
 * may not start a download). The click opens the service's download page (`/embed/assets/download.html`)
 * as a popup, which escapes the sandbox; once it says it is ready, the viewer hands it the file over
 * postMessage (same origin, the popup's opener only); the popup saves it and closes. Nothing is uploaded.
 * docs/embedding.md, "Exports".
 */
import type { Sheets } from './workbook.ts';

export type DownloadPayload = { filename: string; blob: Blob } | { filename: string; sheets: Sheets };

export const READY = 'netloom-download-ready';
export const FILE = 'netloom-download-file';

export class DownloadWindow {
  readonly #win: Window;
  readonly #ready: Promise<void>;

  private constructor(win: Window) {
    this.#win = win;
    this.#ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        removeEventListener('message', onMessage);
        reject(new Error('the download window did not open'));
      }, 15_000);
      const onMessage = (e: MessageEvent) => {
        if (e.source !== win || e.origin !== location.origin || (e.data as { type?: string } | null)?.type !== READY) return;
        clearTimeout(timer);
        removeEventListener('message', onMessage);
        resolve();
      };
      addEventListener('message', onMessage);
    });
  }

  /** Opens the download page; call it in the click handler itself (a popup needs the user's click). Null when the browser blocked it. */
  static open(pageUrl: string | URL): DownloadWindow | null {
    const win = window.open(String(pageUrl), '_blank');
    return win ? new DownloadWindow(win) : null;
  }

  async send(payload: DownloadPayload): Promise<void> {
    await this.#ready;
    this.#win.postMessage({ type: FILE, ...payload }, location.origin);
  }

  close(): void {
    this.#win.close();
  }
}
