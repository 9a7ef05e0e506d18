/** The Open view and Save view panels (views.list / views.open / views.save / views.update). */
import type { ViewSummary } from '@netloom/protocol';
import { PATHS } from '../api.ts';
import { toWireError } from '../errors.ts';
import { button, empty, field, h, searchable, type PanelHost } from './kit.ts';

export function openPanel(host: PanelHost, b: HTMLElement): void {
  const { engine } = host.ctx;
  const box = h('div', {}, h('p', { class: 'nl-hint' }, 'Loading saved views…'));
  const { capabilities } = host.ctx.session;
  if (capabilities.edit !== true && capabilities.saveViews !== true) {
    b.append(h('p', { class: 'nl-hint nl-reason', 'data-read-only': 'true' }, 'You can open saved views. Saving views and keeping positions need Edit access to this network; you have View access.'));
  }
  b.append(box);
  void (engine.viewerCommand('views.list') as Promise<ViewSummary[]>).then((views) => {
    if (views.length === 0) {
      box.replaceChildren(empty(host.ctx.session.capabilities.edit ? 'No saved views yet. Arrange the network, then use Save view.' : 'No saved views yet.'));
      return;
    }
    for (const v of views) host.drawing.rememberViewName(v.id, v.name);
    box.replaceChildren(searchable(views, (v) => `${v.name} ${v.description ?? ''}`, (v) => {
      const current = v.id === engine.viewId;
      return h('li', { class: current ? 'nl-item nl-current' : 'nl-item' },
        h('button', { type: 'button', class: 'nl-link', 'data-view-id': v.id, title: v.description, onclick: () => void host.command('open', 'views.open', { viewId: v.id }) }, v.name),
        current ? h('span', { class: 'nl-badge' }, 'open') : null,
        v.description ? h('span', { class: 'nl-hint nl-block' }, v.description) : null);
    }, { placeholder: 'Search views' }));
  }, (err) => host.say('open', toWireError(err).message, true));
}

export function savePanel(host: PanelHost, b: HTMLElement): void {
  const { engine, session, api } = host.ctx;
  const canEdit = session.capabilities.edit === true;
  const name = h('input', { type: 'text', class: 'nl-input', placeholder: 'e.g. Sales team only', maxlength: 200, 'aria-label': 'View name' });
  const description = h('input', { type: 'text', class: 'nl-input', placeholder: 'Optional', maxlength: 2000, 'aria-label': 'Description' });
  const reason = h('p', { class: 'nl-hint nl-reason' });
  const saveNew = button('Save as new view', { 'data-action': 'save', disabled: true }, 'primary');
  const update = button('Update open view', { 'data-action': 'update', disabled: true });
  b.append(field('Name', name), field('Description', description), h('div', { class: 'nl-row' }, saveNew, update), reason);
  if (!canEdit) {
    name.disabled = description.disabled = true;
    reason.textContent = 'Saving views needs Edit access to this network; you have View access.';
    return;
  }
  update.disabled = engine.viewId === null;
  if (engine.viewId === null) update.title = 'No view is open';
  saveNew.addEventListener('click', () => {
    if (!name.value.trim()) return host.say('save', 'Give the view a name.', true);
    void host.command('save', 'views.save', { name: name.value.trim(), description: description.value }).then((v) => {
      if (v) {
        const view = v as { id: string; name: string };
        host.drawing.rememberViewName(view.id, view.name);
        host.say('save', `Saved “${view.name}”.`);
        host.render();
      }
    });
  });
  update.addEventListener('click', () => void host.command('save', 'views.update').then((v) => v && host.say('save', 'View updated.')));
  // The view limit (billing.maxViews): saving a new view is disabled once it is reached.
  reason.textContent = 'Checking the view limit…';
  void Promise.all([api.request<{ billing?: { maxViews?: number } }>(PATHS.network), engine.viewerCommand('views.list') as Promise<ViewSummary[]>]).then(([net, views]) => {
    const max = net.billing?.maxViews;
    if (typeof max === 'number' && views.length >= max) {
      saveNew.disabled = true;
      reason.textContent = `The view limit of this network is reached (${views.length} of ${max}); update the open view or ask the owner for more.`;
    } else {
      saveNew.disabled = false;
      reason.textContent = typeof max === 'number' ? `${views.length} of ${max} views used.` : '';
    }
  }, () => {
    saveNew.disabled = false;
    reason.textContent = '';
  });
}
