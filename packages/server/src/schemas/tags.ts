/** OpenAPI tag of the organization console's routes (members, embedding; routes/web/organization-members.ts, routes/web/embedding.ts). */
export const ConsoleTag = 'Organization console (session)';
