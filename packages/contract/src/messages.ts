import type { Language } from './constants.js';

/**
 * Every message a schema or the server can put in an answer, by stable key, in both languages.
 * Schemas carry the key as their issue message; the server and the console translate it, so a
 * field error reads the same in the form and in the API answer.
 */
const en = {
  // SPEC §5
  required_email: 'Required email',
  invalid_email: 'Invalid email',
  required_password: 'Required password',
  passwords_must_match: 'Passwords must match',
  required_first_name: 'Required first name',
  required_last_name: 'Required last name',
  required_name: 'Required name',
  required_process_name: 'Required process name',
  required_value: 'Required value',
  required_expiration_date: 'Required expiration date',
  required_group: 'Required group',
  required_sector: 'Required sector',
  required_work: 'Required work',
  required_role: 'Required role',
  required_access: 'Required acess',
  invalid_access: 'Invalid acess',
  client_required: 'Client is required',
  required_date: 'Required data',
  invalid_date: 'Invalid data',
  max_date: 'Max data',
  letters_only: 'It s not in the correct format, just type letters.',
  parameter_value_xor_password: 'The parameter must have a value OR a password, not both!',
  // Ours
  required_field: 'Required field',
  required_code: 'Required code',
  required_current_password: 'Required current password',
  password_too_short: 'The password must have at least 8 characters',
  password_too_long: 'The password must have at most 128 characters',
  password_must_differ: 'The new password must differ from the current one',
  current_password_wrong: 'The current password is not correct',
  too_long: 'Too long',
  invalid_value: 'Invalid value',
  date_range_order: 'The end date cannot be before the start date',
  // Answers
  unauthorized: 'Unauthorized!',
  session_expired: 'Your session has expired. Please sign in again.',
  forbidden: 'You do not have authorization!',
  password_change_required: 'You must set a new password before continuing.',
  not_found: 'Not found',
  route_not_found: 'This API route does not exist',
  invalid_input: 'Some fields are not valid',
  invalid_json: 'The request body is not valid JSON',
  body_too_large: 'The request body is larger than the 1 MB limit',
  unsupported_media_type: 'Unsupported content type',
  too_many_requests: 'Too many attempts. Please wait a few minutes and try again.',
  invalid_credentials: 'Access or password is not correct',
  recover_password_sent:
    'If the email belongs to an account, a message with a link to set a new password is on its way.',
  code_valid: 'The code is valid',
  code_invalid: 'The code is invalid or has expired',
  password_reset: 'Password changed. You can sign in with the new password.',
  password_changed: 'Password changed',
  signed_out: 'Signed out',
  client_not_member: 'You do not belong to this client',
  client_selected: 'Client selected',
  conflict: 'This record conflicts with an existing one',
  internal_error: 'Something went wrong on the server. Quote the request id when you report it.',
  request_access_received: 'Thank you. An administrator will review your request.',
  // Password recovery mail
  mail_recover_subject: 'Rota: set a new password',
  mail_recover_body:
    'Hello {{name}},\n\nSomeone asked to set a new password for your Rota account. Open the link below within 30 minutes to choose a new one:\n\n{{link}}\n\nYour code: {{code}}\n\nIf it was not you, ignore this message; your password stays as it is.',
} as const;

export type MessageKey = keyof typeof en;

const pt: Record<MessageKey, string> = {
  required_email: 'E-mail obrigatório',
  invalid_email: 'E-mail inválido',
  required_password: 'Senha obrigatória',
  passwords_must_match: 'As senhas devem ser iguais',
  required_first_name: 'Nome obrigatório',
  required_last_name: 'Sobrenome obrigatório',
  required_name: 'Nome obrigatório',
  required_process_name: 'Nome do processo obrigatório',
  required_value: 'Valor obrigatório',
  required_expiration_date: 'Data de expiração obrigatória',
  required_group: 'Grupo obrigatório',
  required_sector: 'Setor obrigatório',
  required_work: 'Trabalho obrigatório',
  required_role: 'Cargo obrigatório',
  required_access: 'Acesso obrigatório',
  invalid_access: 'Acesso inválido',
  client_required: 'Cliente é obrigatório',
  required_date: 'Data obrigatória',
  invalid_date: 'Data inválida',
  max_date: 'Data máxima excedida',
  letters_only: 'Não está no formato correto, digite apenas letras.',
  parameter_value_xor_password: 'O parâmetro deve ter um valor OU uma senha, não ambos!',
  required_field: 'Campo obrigatório',
  required_code: 'Código obrigatório',
  required_current_password: 'Senha atual obrigatória',
  password_too_short: 'A senha deve ter pelo menos 8 caracteres',
  password_too_long: 'A senha deve ter no máximo 128 caracteres',
  password_must_differ: 'A nova senha deve ser diferente da atual',
  current_password_wrong: 'A senha atual não está correta',
  too_long: 'Muito longo',
  invalid_value: 'Valor inválido',
  date_range_order: 'A data final não pode ser anterior à data inicial',
  unauthorized: 'Não autorizado!',
  session_expired: 'Sua sessão expirou. Entre novamente.',
  forbidden: 'Você não tem autorização!',
  password_change_required: 'Você precisa definir uma nova senha antes de continuar.',
  not_found: 'Não encontrado',
  route_not_found: 'Esta rota da API não existe',
  invalid_input: 'Alguns campos não são válidos',
  invalid_json: 'O corpo da requisição não é um JSON válido',
  body_too_large: 'O corpo da requisição excede o limite de 1 MB',
  unsupported_media_type: 'Tipo de conteúdo não suportado',
  too_many_requests: 'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
  invalid_credentials: 'Acesso ou senha incorretos',
  recover_password_sent:
    'Se o e-mail pertence a uma conta, uma mensagem com o link para definir uma nova senha está a caminho.',
  code_valid: 'O código é válido',
  code_invalid: 'O código é inválido ou expirou',
  password_reset: 'Senha alterada. Você já pode entrar com a nova senha.',
  password_changed: 'Senha alterada',
  signed_out: 'Sessão encerrada',
  client_not_member: 'Você não pertence a este cliente',
  client_selected: 'Cliente selecionado',
  conflict: 'Este registro conflita com um existente',
  internal_error: 'Algo deu errado no servidor. Informe o id da requisição ao relatar.',
  request_access_received: 'Obrigado. Um administrador vai analisar seu pedido.',
  mail_recover_subject: 'Rota: defina uma nova senha',
  mail_recover_body:
    'Olá {{name}},\n\nAlguém pediu para definir uma nova senha para sua conta Rota. Abra o link abaixo em até 30 minutos para escolher uma nova:\n\n{{link}}\n\nSeu código: {{code}}\n\nSe não foi você, ignore esta mensagem; sua senha continua a mesma.',
};

export const MESSAGES: Record<Language, Record<MessageKey, string>> = { en, pt };

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(en, value);
}

/** Translates a key, filling {{name}} placeholders; an unknown key is returned as it is. */
export function translateMessage(
  lang: Language,
  key: string,
  values: Record<string, string> = {},
): string {
  const template = isMessageKey(key) ? MESSAGES[lang][key] : key;
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

/** Typed key for schema messages, so a typo fails the build instead of reaching a user. */
export const msg = (key: MessageKey): MessageKey => key;
