/** Brazilian Portuguese texts of every component (`agent-embed/locales/pt-BR`), addressing the end user as “você”. */
import type { AgentLabels } from '../../react/index.js';
import { plural } from '../plural.js';
import { integrations } from './integrations.js';

/** The Brazilian Portuguese pack: pass it as `labels={ptBR}` or in `locales={{ 'pt-BR': ptBR }}`. */
export const ptBR: AgentLabels = {
  phase: {
    idle: 'Não iniciado',
    submitting: 'Enviando',
    provisioning: 'Preparando',
    generating: 'Construindo',
    recovering: 'Reconectando',
    stopped: 'Acompanhamento encerrado',
    ready: 'Pronto',
    failed: 'Falhou',
    credits_exhausted: 'Sem créditos',
    interrupted: 'Conexão perdida',
    gone: 'Não encontrado',
  },
  conversation: {
    regionLabel: 'Conversa',
    empty: 'Descreva o app que você quer, e ele será construído aqui.',
    you: 'Você',
    generate: 'Novo app',
    followUp: 'Alteração',
    modeBuild: 'Construir',
    modeDesign: 'Desenhar',
    running: 'Trabalhando nisso…',
    outcome: (outcome, counts, values) => {
      const created = plural('pt-BR', values.created, {
        one: `${counts.created} arquivo novo`,
        many: `${counts.created} de arquivos novos`,
        other: `${counts.created} arquivos novos`,
      });
      const summary =
        values.modified === 0
          ? created
          : values.created === 0
            ? plural('pt-BR', values.modified, {
                one: `${counts.modified} arquivo alterado`,
                many: `${counts.modified} de arquivos alterados`,
                other: `${counts.modified} arquivos alterados`,
              })
            : `${created}, ${counts.modified} ${plural('pt-BR', values.modified, { one: 'alterado', many: 'alterados', other: 'alterados' })}`;
      switch (outcome.status) {
        case 'completed':
          if (values.created === 0 && values.modified === 0 && values.steps === 0) return 'Pronto.';
          return `Pronto: ${summary}, ${plural('pt-BR', values.steps, { one: `${counts.steps} etapa`, many: `${counts.steps} de etapas`, other: `${counts.steps} etapas` })}.`;
        case 'credits_exhausted':
          return `Parou quando os créditos acabaram, depois de ${summary}.`;
        case 'failed':
          return `A construção falhou depois de ${summary}.`;
        case 'interrupted':
          return 'A conexão caiu antes de a construção terminar.';
        case 'stopped':
          return `Você parou de acompanhar depois de ${summary}. A construção pode ter continuado.`;
        default:
          return outcome.status satisfies never;
      }
    },
  },
  projectList: {
    regionLabel: 'Seus projetos',
    heading: 'Seus projetos',
    loading: 'Carregando seus projetos…',
    empty: 'Seus projetos vão aparecer aqui assim que você construir o primeiro.',
    unavailable: 'Seus projetos anteriores não podem ser listados aqui.',
    errorTitle: 'Não foi possível carregar seus projetos',
    untitled: 'App sem nome',
    updated: (status, time) => `${status} · ${time}`,
  },
  generatePanel: {
    heading: 'Criar um app',
    followUpHeading: 'Aprimore seu app',
    promptLabel: 'Descreva o app que você quer',
    followUpPromptLabel: 'O que deve mudar?',
    promptPlaceholder:
      'Um site de agendamento para um estúdio de ioga, com calendário de aulas e formulário de inscrição',
    followUpPromptPlaceholder: 'Deixe o cabeçalho fixo e adicione uma página de contato',
    promptHint: 'Conte para que ele serve, de quais páginas precisa e qual visual você quer.',
    followUpPromptHint: 'Descreva uma alteração por vez.',
    promptTooShort: 'A descrição precisa ter pelo menos 10 caracteres.',
    modeLegend: 'Modo',
    modeBuild: 'Construir',
    modeBuildDescription: 'Um app completo, com frontend e backend.',
    modeDesign: 'Desenhar',
    modeDesignDescription: 'Um design focado no frontend.',
    submit: 'Gerar',
    followUpSubmit: 'Enviar alteração',
    submitting: 'Trabalhando…',
    cancel: 'Parar de acompanhar',
    newProject: 'Novo projeto',
    errorTitle: 'Não foi possível iniciar seu app',
    followUpErrorTitle: 'Não foi possível enviar sua alteração',
    connectionDroppedTitle: 'A conexão caiu',
    connectionDroppedHint: 'Se o seu app começou a ser construído mesmo assim, ele aparecerá entre seus projetos.',
    followUpConnectionDroppedHint:
      'Sua alteração pode ter chegado ao servidor. Confira seu app antes de enviá-la de novo.',
    buyCredits: 'Comprar créditos',
    followUpTarget: (projectName) => `As alterações vão para ${projectName}.`,
    unnamedProject: 'seu app',
    followUpWhenBuilt: 'Este app está sendo criado. Você poderá enviar uma alteração quando ficar pronto.',
  },
  liveBuildLog: {
    regionLabel: 'Progresso da construção',
    heading: 'Progresso da construção',
    idle: 'Nada está sendo construído ainda.',
    progressLabel: 'Progresso da construção',
    progressValue: (percentage) => `${percentage} concluído`,
    stages: {
      none: '',
      sending: 'Enviando seu pedido…',
      container: 'Preparando um espaço para o seu app…',
      generating: 'Escrevendo seu app…',
      done: 'Concluído.',
    },
    otherTool: 'Etapa',
    toolNames: {
      plan: 'Planejando',
      write_files: 'Escrevendo arquivos',
      install_dependencies: 'Instalando dependências',
      run_build: 'Compilando',
      run_tests: 'Testando',
      build: 'Compilando',
      read_context: 'Lendo o contexto',
    },
    filesLabel: 'Arquivos gerados',
    fileCount: (created, modified, total) =>
      modified === '0'
        ? plural('pt-BR', total, {
            one: `${created} arquivo novo`,
            many: `${created} de arquivos novos`,
            other: `${created} arquivos novos`,
          })
        : created === '0'
          ? plural('pt-BR', total, {
              one: `${modified} arquivo alterado`,
              many: `${modified} de arquivos alterados`,
              other: `${modified} arquivos alterados`,
            })
          : `Arquivos novos: ${created} · alterados: ${modified}`,
    fileCreated: 'novo',
    fileModified: 'alterado',
    toolsLabel: 'Etapas do agente',
    toolsOmitted: (count, value) =>
      plural('pt-BR', value, {
        one: `${count} etapa anterior oculta`,
        many: `${count} de etapas anteriores ocultas`,
        other: `${count} etapas anteriores ocultas`,
      }),
    unknownEvents: (count, value) =>
      plural('pt-BR', value, {
        one: `Mais ${count} atualização`,
        many: `Mais ${count} de atualizações`,
        other: `Mais ${count} atualizações`,
      }),
    completed: 'Seu app está pronto.',
    openApp: 'Abrir o app',
    unsafeUrl: 'O endereço do app não é um endereço web, por isso não aparece como link.',
    creditsExhausted: 'Seus créditos acabaram.',
    creditsExhaustedHint: 'Compre mais créditos para continuar construindo.',
    buyCredits: 'Comprar créditos',
    failed: 'A construção falhou.',
    changeFailed: 'A alteração falhou.',
    recovering: 'A conexão caiu. Reconectando à sua construção…',
    buildingElsewhere: 'Este app está sendo criado. O resultado aparece aqui quando ficar pronto.',
    interrupted: 'A conexão caiu e não conseguimos saber como a construção terminou.',
    stopped: 'Você parou de acompanhar esta construção.',
    stoppedHint: 'Ela ainda pode terminar no servidor; nesse caso, o resultado aparece aqui.',
    stoppedUnnamedHint: 'Se o servidor concluir o app mesmo assim, ele estará entre seus projetos.',
    checkingIn: (seconds) => `Verificando de novo em ${seconds} s.`,
    announcements: {
      idle: '',
      submitting: 'Enviando seu pedido.',
      provisioning: 'Preparando um espaço para o seu app.',
      generating: 'Escrevendo seu app.',
      recovering: 'A conexão caiu. Reconectando à sua construção.',
      stopped: 'Acompanhamento encerrado. A construção ainda pode terminar.',
      ready: 'Seu app está pronto.',
      credits_exhausted: 'Seus créditos acabaram.',
      failed: 'A construção falhou.',
      interrupted: 'A conexão caiu.',
      gone: 'Este projeto não foi encontrado.',
    },
  },
  projectStatus: {
    regionLabel: 'Status do projeto',
    heading: 'Projeto',
    noProject: 'Nenhum projeto ainda.',
    loading: 'Carregando o status do projeto…',
    nameLabel: 'Nome',
    statusLabel: 'Status',
    appLabel: 'App',
    openApp: 'Abrir o app',
    unsafeUrl: 'Não é um endereço web',
    updatedLabel: 'Última atualização',
    never: 'Ainda não',
    paused: 'As atualizações ficam pausadas enquanto esta página está oculta.',
    errorPrefix: 'Não foi possível carregar o status:',
  },
  appPreview: {
    regionLabel: 'Prévia do app',
    frameTitle: 'Prévia do app gerado',
    empty: 'Seu app vai aparecer aqui.',
    waiting: {
      idle: '',
      submitting: 'Seu app vai aparecer aqui quando estiver pronto.',
      provisioning: 'Seu app vai aparecer aqui quando estiver pronto.',
      generating: 'Seu app vai aparecer aqui quando estiver pronto.',
      recovering: 'Reconectando à sua construção…',
      stopped: 'A construção ainda pode terminar no servidor; se terminar, o app aparece aqui.',
      ready: '',
      failed: 'A construção não terminou, então não há nada para mostrar.',
      credits_exhausted: 'A construção parou quando os créditos acabaram.',
      interrupted: 'Não conseguimos saber como a construção terminou.',
      gone: 'Este projeto não foi encontrado. Pode ter sido removido; comece um novo.',
    },
    stoppedUnnamed: 'Se o servidor concluir o app mesmo assim, ele estará entre seus projetos.',
    unsafeUrl: 'O endereço do app não é um endereço web, por isso não é possível exibir a prévia.',
    updating: 'Atualizando seu app…',
    reload: 'Recarregar',
    openInNewTab: 'Abrir o app',
    devicesLabel: 'Largura da prévia',
    mobile: 'Celular',
    tablet: 'Tablet',
    desktop: 'Desktop',
  },
  usageMeter: {
    left: (left, limit, period, limitCount) => {
      const base = `Restam ${left} de ${plural('pt-BR', limitCount, { one: `${limit} criação`, many: `${limit} de criações`, other: `${limit} criações` })}`;
      switch (period) {
        case 'day':
          return `${base} hoje`;
        case 'week':
          return `${base} nesta semana`;
        case 'month':
          return `${base} neste mês`;
        default:
          return base;
      }
    },
    moreAt: (when) => `Mais a partir de ${when}`,
  },
  agentBuilder: {
    regionLabel: 'Criador de apps',
    toolbarLabel: 'Projeto',
    buildLabel: 'Chat',
    resultLabel: 'Prévia',
    shipLabel: 'Publicar',
    shipTitle: 'Publique seu app',
    plansLabel: 'Planos',
    projectsLabel: 'Projetos',
    recentLabel: 'Continuar um projeto',
    allProjects: (count, formatted) =>
      plural('pt-BR', count, {
        one: `Ver ${formatted} projeto`,
        many: `Ver todos os ${formatted} de projetos`,
        other: `Ver todos os ${formatted} projetos`,
      }),
    close: 'Fechar',
    newProject: 'Novo projeto',
    newApp: 'Novo app',
    changeFailed: 'A última alteração falhou',
    showDetails: 'Mostrar detalhes da construção',
    hideDetails: 'Ocultar detalhes da construção',
    tabs: { chat: 'Chat', preview: 'Prévia', ship: 'Publicar' },
    appReady: 'Seu app está pronto.',
    seeApp: 'Ver na prévia',
  },
  ...integrations,
};
