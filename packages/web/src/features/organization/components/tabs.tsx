/** The organization console's sub-navigation (members, embedding, try it, audit log) and shared bits. */
import { NavLink } from 'react-router';
import { APP_PATHS } from '@netloom/protocol/http';
import type { OrgOverview } from '../api/organization.ts';

export function OrgTabs({ overview }: { overview: OrgOverview | undefined }) {
  const tabs: { to: string; label: string; show: boolean }[] = [
    { to: APP_PATHS.organization, label: 'Members', show: true },
    { to: APP_PATHS.organizationEmbedding, label: 'Embedding', show: !!overview?.canManage },
    { to: APP_PATHS.organizationTry, label: 'Try it', show: !!overview?.canManage && !!overview?.embedding.enabled },
    { to: APP_PATHS.organizationAudit, label: 'Audit log', show: !!overview?.canManage },
  ];
  return (
    <nav className="tabs" aria-label="Organization">
      {tabs.filter((t) => t.show).map((t) => (
        <NavLink key={t.to} to={t.to} end className={({ isActive }) => `tab${isActive ? ' tab-active' : ''}`}>
          {t.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The console needs Owners/Admins; others see this (the server refuses them too). */
export function AdminsOnly() {
  return (
    <div className="notice notice-info" role="note">
      Only the organization's Owners and Admins manage embedding and read the audit log. Ask one of them if you need a change.
    </div>
  );
}
