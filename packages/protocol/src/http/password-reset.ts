/** Self-service password reset of the web application (docs/web-app.md "Invitations and password resets"). */
import { Type } from 'typebox';

export const PasswordResetStatusSchema = Type.Object({ enabled: Type.Boolean({ description: 'true when e-mail is configured (SMTP_URL): the sign-in page offers "Forgot password?"' }) }, { $id: 'PasswordResetStatus', additionalProperties: false });
export const PasswordResetBody = Type.Object({ email: Type.String({ maxLength: 254 }) }, { $id: 'PasswordResetBody', additionalProperties: false });
export const PasswordResetAcceptedSchema = Type.Object({ accepted: Type.Literal(true) }, { $id: 'PasswordResetAccepted', additionalProperties: false, description: 'The same answer whether or not the address has an account.' });

export const PASSWORD_RESET_SCHEMAS = [PasswordResetStatusSchema, PasswordResetBody, PasswordResetAcceptedSchema];
