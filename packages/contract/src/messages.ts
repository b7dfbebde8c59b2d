import type { Language } from './constants.js';

/**
 * Every message a schema or the server can put in an answer, by stable key, in both languages.
 * Schemas carry the key as their issue message; the server and the console translate it, so a
 * field error reads the same in the form and in the API answer.
 */
const en = {
  // Field validation
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
  required_value_or_password: 'Required value (or a password)',
  required_company: 'Required company',
  invalid_parameter_name:
    'Use letters, digits and "_", starting with a letter: the robot reads it as ROTA_PARAM_<NAME>',
  out_of_range_between: 'Between {{min}} and {{max}}',
  required_field: 'Required field',
  required_code: 'Required code',
  required_current_password: 'Required current password',
  password_too_short: 'The password must have at least 8 characters',
  password_too_long: 'The password must have at most 128 characters',
  password_must_differ: 'The new password must differ from the current one',
  current_password_wrong: 'The current password is not correct',
  too_long: 'Too long',
  invalid_character: 'Contains a character that cannot be stored (NUL)',
  invalid_value: 'Invalid value',
  invalid_label: 'A label uses lowercase letters, digits, ".", "_" and "-", 1 to 40 characters',
  too_many_labels: 'At most 20 labels',
  date_range_order: 'The end date cannot be before the start date',
  // Operations
  required_executor: 'Required executor',
  required_label: 'Required label',
  required_hostname: 'Required hostname',
  required_version: 'Required version',
  required_robot: 'Required robot',
  required_vm: 'Required VM',
  required_file: 'Required file',
  required_interval: 'Required interval',
  required_timeout: 'Required timeout',
  invalid_identifier: 'Use letters, digits and "_", starting with a letter',
  invalid_number: 'Must be a number',
  invalid_integer: 'Must be a whole number',
  out_of_range: 'Out of range',
  out_of_range_task_minutes: 'Must be between 1 and 525600 minutes (one year)',
  out_of_range_task_retries: 'Must be between 0 and 10',
  out_of_range_stall_minutes: 'Must be between 1 and 1440 minutes (one day)',
  out_of_range_percent: 'Must be between 0 and 100',
  out_of_range_retention_days: 'Must be between 1 and 3650 days (ten years)',
  invalid_type_text: 'Must be text',
  invalid_type_number: 'Must be a number',
  invalid_type_boolean: 'Must be true or false',
  invalid_type_date: 'Must be a date (YYYY-MM-DD)',
  invalid_type_json: 'Must be JSON',
  invalid_type_json_object: 'Must be a JSON object, such as {"invoice": 123}',
  unknown_field: 'This robot has no such field',
  expiration_in_past: 'The expiration date must be in the future',
  package_format: 'The package must be a .zip or .tar.gz file',
  package_corrupt: 'The package is corrupt or not the archive its name says',
  package_too_large: 'The package is larger than 100 MB',
  package_empty: 'The package holds no files',
  package_unsafe_path: 'The package holds a path that leaves its folder (absolute or with "..")',
  package_unpacked_too_large: 'Unpacked, the package would be larger than 2 GB',
  package_link: 'The package holds a link (symbolic or hard); only files and folders are allowed',
  package_special_file:
    'The package holds a special file (named pipe, device or socket); only files and folders are allowed',
  package_ratio:
    'The package claims to unpack to more than its data can hold (compression over 1100:1)',
  package_too_many_entries: 'The package holds more than 100,000 entries',
  package_encrypted: 'The package holds an encrypted entry',
  package_compression: 'The package uses a compression method other than deflate',
  duplicate_robot_name: 'A robot with this name already exists',
  duplicate_field_name: 'This robot already has a field with this name',
  duplicate_parameter_name: 'A parameter with this name already exists',
  duplicate_vm_name: 'A VM with this name already exists',
  duplicate_agent_name: 'An agent with this name already exists',
  duplicate_scheduling_name: 'A scheduling with this name already exists',
  duplicate_scheduling_vm: 'The scheduling already runs on this VM',
  // Unattended operation
  required_cron: 'Required cron expression',
  invalid_cron: 'Invalid cron expression (5 fields: minute hour day month weekday)',
  invalid_time_zone: 'Unknown time zone',
  duplicate_calendar_name: 'A calendar with this name already exists',
  calendar_not_found: 'This calendar does not exist',
  calendar_in_use: 'Schedulings use this calendar; change them first',
  vm_not_found: 'This VM does not exist',
  robot_not_found: 'This robot does not exist',
  duplicate_version: 'This robot already has this version',
  version_in_use: 'The current version cannot be deleted; make another one current first',
  robot_in_use: 'The robot has schedulings; delete them first',
  vm_in_use: 'The VM has agents; move or delete them first',
  created: 'Created!',
  removed: 'Removed!',
  restored: 'Restored!',
  token_rotated:
    'A new token was issued; the old one only finishes the runs its agent already started',
  tasks_retried: 'Tasks queued again',
  update_target_one: 'Name the agents, a VM or all agents: exactly one of them',
  agents_update_requested: '{{count}} agent(s) will update between runs',
  tasks_removed: 'Tasks removed',
  // Engine
  robot_inactive: 'The robot is inactive; activate it to run it',
  scheduling_deleted: 'The scheduling is deleted; restore it to run it',
  execution_queued: 'Execution queued',
  execution_cancelled: 'Execution cancelled',
  execution_cancel_requested: 'Cancellation sent to the agent',
  execution_finished: 'The execution has already finished',
  execution_stop_requested: 'Stop sent to the agent: the robot gets its grace period',
  execution_marked_failed: 'Execution marked as failed',
  execution_not_processing: 'Only a running execution can be marked as failed',
  agent_lost: 'agent lost',
  agent_stopped: 'agent stopped',
  invalid_agent_token: 'The agent token is not valid',
  attended_user_unknown: "No user with this access is a member of the agent's client",
  no_attended_agent:
    'You have no attended agent: install the agent on your machine with --attended --user and your access',
  attended_agent_required: 'Choose which of your machines runs it',
  attended_agent_unknown: 'This is not one of your attended agents',
  agent_not_attended:
    'This agent is not attended: install it with --attended --user ACCESS to start runs from it',
  robot_name_unknown: 'No robot of this client has this name',
  agent_lacks_robot_labels: "This machine's agent lacks labels the robot needs",
  invalid_run_token: 'The run token is not valid or the run has ended',
  stale_attempt:
    'This attempt is no longer current: the run was handed on, so its call was recorded and not applied',
  task_not_held: 'This task is not held by this run',
  task_finished: 'Task finished',
  progress_recorded: 'Progress recorded',
  // Integrations
  required_secret: 'Required secret',
  secret_too_short: 'The secret must have at least 16 characters',
  required_events: 'Choose at least one event',
  required_alert: 'Required alert',
  required_permissions: 'Choose at least one permission',
  duplicate_alert_name: 'An alert with this name already exists',
  duplicate_trigger_name: 'This robot already has a trigger with this name',
  destination_not_allowed:
    'Destination not allowed: internal, reserved and cloud metadata addresses are refused unless the administrator allows the network (ALERT_ALLOWED_NETWORKS)',
  permission_not_held: 'You do not hold this permission in the selected client',
  expires_in_past: 'Must be in the future',
  invalid_trigger_token: 'The trigger token is not valid or was revoked',
  invalid_idempotency_key: 'Idempotency-Key must have 1 to 200 visible characters',
  trigger_fired: 'Run queued',
  api_key_revoked: 'Key revoked',
  trigger_revoked: 'Trigger revoked',
  alert_test_sent: 'Test sent',
  // Maintenance
  required_maintenance_message: 'Required reason',
  maintenance_started: 'Maintenance started',
  maintenance_ended: 'Maintenance ended',
  maintenance_already_active: 'A maintenance window is already active here',
  maintenance_not_active: 'No maintenance window is active here',
  // Administration
  required_title: 'Required title',
  invalid_url: 'Must be an http(s) address',
  invalid_color: 'Must be a colour written #rrggbb',
  duplicate_email: 'A user with this email already exists',
  duplicate_access: 'A user with this access already exists',
  duplicate_profile_name: 'A profile with this name already exists',
  duplicate_team_name: 'A team with this name already exists',
  duplicate_client_name: 'A client with this name already exists',
  duplicate_environment_title: 'An environment with this title already exists',
  duplicate_membership: 'The user already belongs to this client',
  duplicate_team_member: 'Already in this team',
  required_team: 'Required team',
  required_user: 'Required user',
  required_profile: 'Required profile',
  profile_not_found: 'This profile does not exist in the client',
  user_not_found: 'This user does not exist',
  profile_in_use: 'Users hold this profile; give them another one first',
  cannot_delete_self: 'You cannot delete your own user',
  last_membership: 'A user must belong to at least one client',
  avatar_too_large: 'The picture is larger than 1 MB',
  avatar_format: 'The picture must be a PNG, JPEG, WebP or GIF image',
  password_set: 'Password set',
  avatar_saved: 'Picture saved',
  account_saved: 'Your account was saved',
  connection_ok: 'Connected',
  connection_timeout: 'No answer within {{seconds}} s',
  environment_without_host: 'The environment has no database host (db_url)',
  connection_refused: 'Connection refused: no PostgreSQL server accepted it at this address',
  connection_auth_failed: 'Authentication failed: check the user, the password and the database',
  retype_db_pass:
    'The host, port, user or database changed since the password was saved: type the password again',
  connection_tests_too_many: 'Too many connection tests. Wait a minute and try again.',
  service_unavailable: 'The service is unavailable: its database does not answer',
  // Answers
  unauthorized: 'Unauthorized!',
  session_expired: 'Your session has expired. Please sign in again.',
  forbidden: 'You do not have authorization!',
  password_change_required: 'You must set a new password before continuing.',
  session_required: 'This action needs a signed-in session, not an API key.',
  not_found: 'Not found',
  route_not_found: 'This API route does not exist',
  invalid_input: 'Some fields are not valid',
  invalid_json: 'The request body is not valid JSON',
  json_too_deep: 'The request body nests arrays and objects more than 64 levels deep',
  body_too_large: 'The request body is larger than the 1 MB limit',
  unsupported_media_type: 'Unsupported content type',
  artifact_too_large: 'The file is larger than 20 MB',
  artifact_limit: 'This execution already keeps 100 artifacts',
  artifact_name_invalid:
    'The name must have at most 200 characters, without path separators or control characters',
  artifact_media_type_invalid: 'The content type must look like type/subtype',
  artifact_file_missing: 'Send the file in the part named "file"',
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
  // Identity
  required_mfa_code: 'Enter the code from your authenticator app',
  invalid_mfa_code: 'The code is not valid. Check the time on your phone and try again.',
  mfa_challenge_expired: 'This sign-in has expired. Enter your password again.',
  mfa_already_enabled: 'The second factor is already on',
  mfa_not_enabled: 'The second factor is not on',
  mfa_setup_required: 'A client you belong to requires a second factor: set it up to continue',
  mfa_enabled: 'Second factor turned on',
  mfa_disabled: 'Second factor turned off',
  mfa_reset: 'Second factor reset: the user sets it up again at the next sign-in',
  required_claim_value: 'Required group',
  duplicate_oidc_mapping: 'This group is already mapped to this client',
  oidc_failed: 'Single sign-on did not complete. Try again or ask your administrator.',
  oidc_state: 'The single sign-on attempt expired or was opened in another browser. Try again.',
  oidc_denied: 'The identity provider refused the sign-in.',
  oidc_no_access:
    'Your account has no access to any client. Ask your administrator to give your group access.',
  oidc_email_unverified: 'Your identity provider has not verified your email address.',
  oidc_not_configured: 'Single sign-on is not set up on this server',
  local_login_disabled: 'Sign in with your organisation’s account',
  oidc_link_required:
    'An account with this email already exists. Sign in with your password, then link single sign-on in My account.',
  oidc_link_unavailable:
    'An account with this email already exists and is not linked to single sign-on. Ask your administrator to link it.',
  oidc_already_linked: 'This account is already linked to another single sign-on identity.',
  oidc_identity_taken: 'This single sign-on identity is already linked to another account.',
  oidc_link_session: 'Your session ended before single sign-on was linked. Sign in and try again.',
  oidc_unlinked: 'Single sign-on unlinked',
  oidc_not_linked: 'Your account is not linked to single sign-on',
  oidc_unlink_local_login_off:
    'Password sign-in is off on this server: without single sign-on you could not sign in.',
  invalid_domain: 'Must be a domain, like example.com',
  too_many_domains: 'At most 50 domains',
  session_revoked: 'Session ended',
  sessions_revoked: 'Other sessions ended',
  agent_build_missing:
    'No agent was packaged on this server yet: run npm run package:agent where the server is installed',
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
  required_value_or_password: 'Valor obrigatório (ou uma senha)',
  required_company: 'Empresa obrigatória',
  invalid_parameter_name:
    'Use letras, dígitos e "_", começando por uma letra: o robô o lê como ROTA_PARAM_<NOME>',
  out_of_range_between: 'Entre {{min}} e {{max}}',
  required_field: 'Campo obrigatório',
  required_code: 'Código obrigatório',
  required_current_password: 'Senha atual obrigatória',
  password_too_short: 'A senha deve ter pelo menos 8 caracteres',
  password_too_long: 'A senha deve ter no máximo 128 caracteres',
  password_must_differ: 'A nova senha deve ser diferente da atual',
  current_password_wrong: 'A senha atual não está correta',
  too_long: 'Muito longo',
  invalid_character: 'Contém um caractere que não pode ser armazenado (NUL)',
  invalid_value: 'Valor inválido',
  invalid_label: 'Um rótulo usa letras minúsculas, dígitos, ".", "_" e "-", de 1 a 40 caracteres',
  too_many_labels: 'No máximo 20 rótulos',
  date_range_order: 'A data final não pode ser anterior à data inicial',
  required_executor: 'Executor obrigatório',
  required_label: 'Rótulo obrigatório',
  required_hostname: 'Hostname obrigatório',
  required_version: 'Versão obrigatória',
  required_robot: 'Robô obrigatório',
  required_vm: 'VM obrigatória',
  required_file: 'Arquivo obrigatório',
  required_interval: 'Intervalo obrigatório',
  required_timeout: 'Tempo limite obrigatório',
  invalid_identifier: 'Use letras, dígitos e "_", começando por uma letra',
  invalid_number: 'Deve ser um número',
  invalid_integer: 'Deve ser um número inteiro',
  out_of_range: 'Fora do intervalo permitido',
  out_of_range_task_minutes: 'Deve estar entre 1 e 525600 minutos (um ano)',
  out_of_range_task_retries: 'Deve estar entre 0 e 10',
  out_of_range_stall_minutes: 'Deve estar entre 1 e 1440 minutos (um dia)',
  out_of_range_percent: 'Deve estar entre 0 e 100',
  out_of_range_retention_days: 'Deve estar entre 1 e 3650 dias (dez anos)',
  invalid_type_text: 'Deve ser texto',
  invalid_type_number: 'Deve ser um número',
  invalid_type_boolean: 'Deve ser verdadeiro ou falso',
  invalid_type_date: 'Deve ser uma data (AAAA-MM-DD)',
  invalid_type_json: 'Deve ser JSON',
  invalid_type_json_object: 'Deve ser um objeto JSON, como {"fatura": 123}',
  unknown_field: 'Este robô não tem esse campo',
  expiration_in_past: 'A data de expiração deve estar no futuro',
  package_format: 'O pacote deve ser um arquivo .zip ou .tar.gz',
  package_corrupt: 'O pacote está corrompido ou não é o arquivo que o nome indica',
  package_too_large: 'O pacote excede 100 MB',
  package_empty: 'O pacote não contém arquivos',
  package_unsafe_path: 'O pacote contém um caminho que sai da sua pasta (absoluto ou com "..")',
  package_unpacked_too_large: 'Descompactado, o pacote passaria de 2 GB',
  package_link:
    'O pacote contém um link (simbólico ou físico); só arquivos e pastas são permitidos',
  package_special_file:
    'O pacote contém um arquivo especial (pipe nomeado, dispositivo ou socket); só arquivos e pastas são permitidos',
  package_ratio:
    'O pacote declara descompactar mais do que seus dados podem conter (compressão acima de 1100:1)',
  package_too_many_entries: 'O pacote contém mais de 100.000 entradas',
  package_encrypted: 'O pacote contém uma entrada criptografada',
  package_compression: 'O pacote usa um método de compressão diferente de deflate',
  duplicate_robot_name: 'Já existe um robô com este nome',
  duplicate_field_name: 'Este robô já tem um campo com este nome',
  duplicate_parameter_name: 'Já existe um parâmetro com este nome',
  duplicate_vm_name: 'Já existe uma VM com este nome',
  duplicate_agent_name: 'Já existe um agente com este nome',
  duplicate_scheduling_name: 'Já existe um agendamento com este nome',
  duplicate_scheduling_vm: 'O agendamento já roda nesta VM',
  // Unattended operation
  required_cron: 'Expressão cron obrigatória',
  invalid_cron: 'Expressão cron inválida (5 campos: minuto hora dia mês dia-da-semana)',
  invalid_time_zone: 'Fuso horário desconhecido',
  duplicate_calendar_name: 'Já existe um calendário com este nome',
  calendar_not_found: 'Este calendário não existe',
  calendar_in_use: 'Há agendamentos usando este calendário; altere-os antes',
  vm_not_found: 'Esta VM não existe',
  robot_not_found: 'Este robô não existe',
  duplicate_version: 'Este robô já tem esta versão',
  version_in_use: 'A versão atual não pode ser excluída; torne outra versão atual antes',
  robot_in_use: 'O robô tem agendamentos; exclua-os antes',
  vm_in_use: 'A VM tem agentes; mova-os ou exclua-os antes',
  created: 'Criado!',
  removed: 'Removido!',
  restored: 'Restaurado!',
  token_rotated:
    'Um novo token foi emitido; o anterior só conclui as execuções que o agente já começou',
  tasks_retried: 'Tarefas enfileiradas novamente',
  update_target_one: 'Indique os agentes, uma VM ou todos os agentes: exatamente um deles',
  agents_update_requested: '{{count}} agente(s) serão atualizados entre execuções',
  tasks_removed: 'Tarefas removidas',
  robot_inactive: 'O robô está inativo; ative-o para executá-lo',
  scheduling_deleted: 'O agendamento foi excluído; restaure-o para executá-lo',
  execution_queued: 'Execução enfileirada',
  execution_cancelled: 'Execução cancelada',
  execution_cancel_requested: 'Cancelamento enviado ao agente',
  execution_finished: 'A execução já terminou',
  execution_stop_requested: 'Parada enviada ao agente: o robô recebe seu prazo de encerramento',
  execution_marked_failed: 'Execução marcada como falha',
  execution_not_processing: 'Só uma execução em andamento pode ser marcada como falha',
  agent_lost: 'agente perdido',
  agent_stopped: 'agente parado',
  invalid_agent_token: 'O token do agente não é válido',
  attended_user_unknown: 'Nenhum usuário com este acesso é membro do cliente do agente',
  no_attended_agent:
    'Você não tem agente assistido: instale o agente na sua máquina com --attended --user e o seu acesso',
  attended_agent_required: 'Escolha qual das suas máquinas o executa',
  attended_agent_unknown: 'Este não é um dos seus agentes assistidos',
  agent_not_attended:
    'Este agente não é assistido: instale-o com --attended --user ACESSO para iniciar execuções por ele',
  robot_name_unknown: 'Nenhum robô deste cliente tem este nome',
  agent_lacks_robot_labels: 'O agente desta máquina não tem rótulos de que o robô precisa',
  invalid_run_token: 'O token da execução não é válido ou a execução terminou',
  stale_attempt:
    'Esta tentativa não é mais a atual: a execução foi repassada, então a chamada foi registrada e não aplicada',
  task_not_held: 'Esta tarefa não está com esta execução',
  task_finished: 'Tarefa concluída',
  progress_recorded: 'Progresso registrado',
  // Integrações
  required_secret: 'Segredo obrigatório',
  secret_too_short: 'O segredo deve ter pelo menos 16 caracteres',
  required_events: 'Escolha pelo menos um evento',
  required_alert: 'Alerta obrigatório',
  required_permissions: 'Escolha pelo menos uma permissão',
  duplicate_alert_name: 'Já existe um alerta com este nome',
  duplicate_trigger_name: 'Este robô já tem um gatilho com este nome',
  destination_not_allowed:
    'Destino não permitido: endereços internos, reservados e de metadados de nuvem são recusados, a menos que o administrador libere a rede (ALERT_ALLOWED_NETWORKS)',
  permission_not_held: 'Você não tem esta permissão no cliente selecionado',
  expires_in_past: 'Deve estar no futuro',
  invalid_trigger_token: 'O token do gatilho não é válido ou foi revogado',
  invalid_idempotency_key: 'Idempotency-Key deve ter de 1 a 200 caracteres visíveis',
  trigger_fired: 'Execução enfileirada',
  api_key_revoked: 'Chave revogada',
  trigger_revoked: 'Gatilho revogado',
  alert_test_sent: 'Teste enviado',
  required_maintenance_message: 'Motivo obrigatório',
  maintenance_started: 'Manutenção iniciada',
  maintenance_ended: 'Manutenção encerrada',
  maintenance_already_active: 'Já há uma janela de manutenção ativa aqui',
  maintenance_not_active: 'Nenhuma janela de manutenção está ativa aqui',
  // Administration
  required_title: 'Título obrigatório',
  invalid_url: 'Deve ser um endereço http(s)',
  invalid_color: 'Deve ser uma cor no formato #rrggbb',
  duplicate_email: 'Já existe um usuário com este e-mail',
  duplicate_access: 'Já existe um usuário com este acesso',
  duplicate_profile_name: 'Já existe um perfil com este nome',
  duplicate_team_name: 'Já existe um time com este nome',
  duplicate_client_name: 'Já existe um cliente com este nome',
  duplicate_environment_title: 'Já existe um ambiente com este título',
  duplicate_membership: 'O usuário já pertence a este cliente',
  duplicate_team_member: 'Já está neste time',
  required_team: 'Time obrigatório',
  required_user: 'Usuário obrigatório',
  required_profile: 'Perfil obrigatório',
  profile_not_found: 'Este perfil não existe no cliente',
  user_not_found: 'Este usuário não existe',
  profile_in_use: 'Há usuários com este perfil; atribua outro a eles antes',
  cannot_delete_self: 'Você não pode excluir o seu próprio usuário',
  last_membership: 'O usuário deve pertencer a pelo menos um cliente',
  avatar_too_large: 'A imagem tem mais de 1 MB',
  avatar_format: 'A imagem deve ser PNG, JPEG, WebP ou GIF',
  password_set: 'Senha definida',
  avatar_saved: 'Imagem salva',
  account_saved: 'Sua conta foi salva',
  connection_ok: 'Conectado',
  connection_timeout: 'Sem resposta em {{seconds}} s',
  environment_without_host: 'O ambiente não tem host do banco (db_url)',
  connection_refused: 'Conexão recusada: nenhum servidor PostgreSQL a aceitou neste endereço',
  connection_auth_failed: 'Falha na autenticação: confira o usuário, a senha e o banco',
  retype_db_pass:
    'O host, a porta, o usuário ou o banco mudaram desde que a senha foi salva: digite a senha novamente',
  connection_tests_too_many: 'Testes de conexão demais. Aguarde um minuto e tente novamente.',
  service_unavailable: 'Serviço indisponível: o banco de dados não responde',
  unauthorized: 'Não autorizado!',
  session_expired: 'Sua sessão expirou. Entre novamente.',
  forbidden: 'Você não tem autorização!',
  password_change_required: 'Você precisa definir uma nova senha antes de continuar.',
  session_required: 'Esta ação precisa de uma sessão iniciada, não de uma chave de API.',
  not_found: 'Não encontrado',
  route_not_found: 'Esta rota da API não existe',
  invalid_input: 'Alguns campos não são válidos',
  invalid_json: 'O corpo da requisição não é um JSON válido',
  json_too_deep: 'O corpo da requisição aninha listas e objetos em mais de 64 níveis',
  body_too_large: 'O corpo da requisição excede o limite de 1 MB',
  unsupported_media_type: 'Tipo de conteúdo não suportado',
  artifact_too_large: 'O arquivo excede 20 MB',
  artifact_limit: 'Esta execução já guarda 100 artefatos',
  artifact_name_invalid:
    'O nome deve ter no máximo 200 caracteres, sem separadores de caminho nem caracteres de controle',
  artifact_media_type_invalid: 'O tipo de conteúdo deve ter a forma tipo/subtipo',
  artifact_file_missing: 'Envie o arquivo na parte chamada "file"',
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
  required_mfa_code: 'Digite o código do seu aplicativo autenticador',
  invalid_mfa_code: 'O código não é válido. Confira a hora do celular e tente de novo.',
  mfa_challenge_expired: 'Este acesso expirou. Digite sua senha de novo.',
  mfa_already_enabled: 'A verificação em duas etapas já está ativa',
  mfa_not_enabled: 'A verificação em duas etapas não está ativa',
  mfa_setup_required:
    'Um cliente ao qual você pertence exige verificação em duas etapas: configure-a para continuar',
  mfa_enabled: 'Verificação em duas etapas ativada',
  mfa_disabled: 'Verificação em duas etapas desativada',
  mfa_reset:
    'Verificação em duas etapas redefinida: o usuário a configura de novo no próximo acesso',
  required_claim_value: 'Grupo obrigatório',
  duplicate_oidc_mapping: 'Este grupo já está mapeado para este cliente',
  oidc_failed: 'O login único não foi concluído. Tente de novo ou fale com seu administrador.',
  oidc_state: 'A tentativa de login único expirou ou foi aberta em outro navegador. Tente de novo.',
  oidc_denied: 'O provedor de identidade recusou o acesso.',
  oidc_no_access:
    'Sua conta não tem acesso a nenhum cliente. Peça ao administrador para dar acesso ao seu grupo.',
  oidc_email_unverified: 'Seu provedor de identidade não verificou seu e-mail.',
  oidc_not_configured: 'O login único não está configurado neste servidor',
  local_login_disabled: 'Entre com a conta da sua organização',
  oidc_link_required:
    'Já existe uma conta com este e-mail. Entre com sua senha e vincule o login único em Minha conta.',
  oidc_link_unavailable:
    'Já existe uma conta com este e-mail, ainda não vinculada ao login único. Peça ao seu administrador para vinculá-la.',
  oidc_already_linked: 'Esta conta já está vinculada a outra identidade de login único.',
  oidc_identity_taken: 'Esta identidade de login único já está vinculada a outra conta.',
  oidc_link_session:
    'Sua sessão terminou antes de o login único ser vinculado. Entre e tente de novo.',
  oidc_unlinked: 'Login único desvinculado',
  oidc_not_linked: 'Sua conta não está vinculada ao login único',
  oidc_unlink_local_login_off:
    'O login com senha está desligado neste servidor: sem o login único você não conseguiria entrar.',
  invalid_domain: 'Deve ser um domínio, como exemplo.com.br',
  too_many_domains: 'No máximo 50 domínios',
  session_revoked: 'Sessão encerrada',
  sessions_revoked: 'Outras sessões encerradas',
  agent_build_missing:
    'Nenhum agente foi empacotado neste servidor ainda: rode npm run package:agent onde o servidor está instalado',
  mail_recover_subject: 'Rota: defina uma nova senha',
  mail_recover_body:
    'Olá {{name}},\n\nAlguém pediu para definir uma nova senha para sua conta Rota. Abra o link abaixo em até 30 minutos para escolher uma nova:\n\n{{link}}\n\nSeu código: {{code}}\n\nSe não foi você, ignore esta mensagem; sua senha continua a mesma.',
};

export const MESSAGES: Record<Language, Record<MessageKey, string>> = { en, pt };

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(en, value);
}

/**
 * A key with its values in one string (`out_of_range_between?min=1&max=1440`), for the places
 * that carry one string: a zod issue's message, a field error. Translated like a key, values
 * filled in ("Between 1 and 1440" / "Entre 1 e 1440").
 */
export function msgWith(key: MessageKey, values: Record<string, string | number>): string {
  const query = Object.entries(values)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return `${key}?${query}`;
}

/** A key, or a key with values (`msgWith`), read apart; null when it is neither (plain text). */
export function parseMessageRef(
  value: string,
): { key: MessageKey; values: Record<string, string> } | null {
  const at = value.indexOf('?');
  const key = at === -1 ? value : value.slice(0, at);
  if (!isMessageKey(key)) return null;
  const values: Record<string, string> = {};
  if (at !== -1) {
    for (const pair of value.slice(at + 1).split('&')) {
      const [name = '', text = ''] = pair.split('=');
      try {
        values[decodeURIComponent(name)] = decodeURIComponent(text);
      } catch {
        return null;
      }
    }
  }
  return { key, values };
}

/** Whether a field error is one of ours (a key, with or without values) rather than text. */
export function isMessageRef(value: string): boolean {
  return parseMessageRef(value) !== null;
}

/**
 * Translates a key (or a `msgWith` key with values), filling {{name}} placeholders; an unknown
 * key is returned as it is.
 */
export function translateMessage(
  lang: Language,
  key: string,
  values: Record<string, string> = {},
): string {
  const ref = parseMessageRef(key);
  if (!ref) return key.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
  const all = { ...ref.values, ...values };
  return MESSAGES[lang][ref.key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => all[name] ?? '');
}

/** Typed key for schema messages, so a typo fails the build instead of reaching a user. */
export const msg = (key: MessageKey): MessageKey => key;
