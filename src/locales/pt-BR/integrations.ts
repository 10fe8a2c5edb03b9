/** Brazilian Portuguese texts of deploy, code host, repositories, plans and errors (the second half of `ptBR`). */
import type { AgentLabels } from '../../react/index.js';
import { plural } from '../plural.js';

const repositories = (count: string, value: number) =>
  plural('pt-BR', value, {
    one: `${count} repositório`,
    many: `${count} de repositórios`,
    other: `${count} repositórios`,
  });

/** Part of `ptBR`. */
export const integrations: Pick<
  AgentLabels,
  'deployButton' | 'codehostConnect' | 'repoPicker' | 'planList' | 'errors'
> = {
  deployButton: {
    providerNames: { vercel: 'Vercel', netlify: 'Netlify' },
    heading: () => 'Publicar na web',
    signedOut: 'Entre na sua conta para publicar seu app.',
    loading: (provider) => `Verificando sua conexão com a ${provider}…`,
    connectedAs: (account) => `Conectado como ${account}`,
    connected: 'Conectado',
    notConnected: (provider) => `Ainda não conectado à ${provider}.`,
    expired: (provider) => `Sua conexão com a ${provider} expirou. Conecte de novo para publicar.`,
    unknownProviderHint: 'Não é possível publicar neste provedor.',
    loadErrorTitle: 'Não foi possível verificar sua conexão',
    retry: 'Tentar de novo',
    noProject: 'Primeiro gere um app, depois publique.',
    building: 'Você poderá publicar quando as alterações terminarem.',
    deploy: (provider) => `Publicar na ${provider}`,
    redeploy: 'Publicar de novo',
    deploying: (provider) => `Publicando na ${provider}…`,
    deployed: 'Publicado',
    deploymentStatuses: {
      ready: 'No ar',
      building: 'Compilando',
      queued: 'Na fila',
      error: 'Falhou',
      canceled: 'Cancelado',
    },
    connectFirst: (provider) => `Conecte sua conta da ${provider} para publicar seu app.`,
    openDeployment: 'Abrir a publicação',
    unsafeUrl: 'O endereço da publicação não é um endereço web, por isso não aparece como link.',
    failedTitle: 'A publicação falhou',
    redeployFailedTitle: 'A nova versão não foi publicada; o site continua como estava',
    connect: (provider) => `Conectar à ${provider}`,
    reconnect: 'Usar outra conta',
    dialogTitle: (provider) => `Conectar à ${provider}`,
    dialogDescription: (provider) =>
      `Crie um token de acesso nas configurações da sua conta da ${provider} (procure por “Tokens”) e cole-o aqui. Ele é verificado uma única vez e guardado na sua conta, não nesta página.`,
    tokenLabel: (provider) => `Token de acesso da ${provider}`,
    tokenRequired: 'Informe um token de acesso.',
    tokenRejected: 'Este token não foi aceito. Verifique se ele está completo e ainda é válido e cole-o novamente.',
    submit: 'Conectar',
    submitting: 'Conectando…',
    cancel: 'Cancelar',
    connectErrorTitle: 'O token não foi aceito',
  },
  codehostConnect: {
    regionLabel: 'Salvar o código no GitHub',
    heading: 'Salvar o código no GitHub',
    signedOut: 'Entre para conectar o GitHub.',
    loading: 'Verificando sua conexão com o GitHub…',
    disconnected: 'Conecte o GitHub para guardar o código do seu app em um repositório.',
    connect: 'Conectar o GitHub',
    reconnect: 'Conectar de novo',
    refresh: 'Atualizar',
    starting: 'Abrindo a página de instalação…',
    redirecting: 'Levando você à página de instalação…',
    popupOpened: 'Conclua a instalação na janela que abriu. Esta página é atualizada quando você voltar.',
    connectedAs: (login) => `Conectado como ${login}`,
    connected: 'Conectado',
    expired: 'Sua conexão com o GitHub expirou. Conecte de novo para continuar salvando seu código.',
    inactive: 'O app do GitHub não está ativo nesta conta. Instale-o de novo para continuar.',
    loginLabel: 'Conta',
    installationLabel: 'Instalação',
    connectedLabel: 'Conectado',
    updatedLabel: 'Atualizado',
    installationStatuses: { active: 'Ativa', suspended: 'Suspensa', deleted: 'Removida' },
    installationUnknown: 'Desconhecido',
    errorTitle: 'Não foi possível conectar o GitHub',
    loadErrorTitle: 'Não foi possível verificar sua conexão com o GitHub',
  },
  repoPicker: {
    regionLabel: 'Repositórios',
    heading: 'Repositório',
    signedOut: 'Entre na sua conta para escolher um repositório.',
    notConnected: 'Conecte o GitHub para escolher um repositório para o seu código.',
    searchLabel: 'Buscar repositórios',
    searchPlaceholder: 'Filtrar por nome',
    listLabel: 'Repositórios',
    loading: 'Carregando repositórios…',
    empty: 'Ainda não há repositórios. Crie um abaixo salvando seu código.',
    noMatches: (query) => `Nenhum repositório carregado corresponde a “${query}”.`,
    matchCount: (matches, loaded, counts) =>
      `${matches} de ${repositories(loaded, counts.loaded)} ${plural('pt-BR', counts.loaded, { one: 'carregado', many: 'carregados', other: 'carregados' })} ${plural('pt-BR', counts.matches, { one: 'corresponde', many: 'correspondem', other: 'correspondem' })}.`,
    searchScope: (loaded, total) =>
      total === undefined
        ? `A busca abrange só os repositórios carregados até agora (${loaded}).`
        : `A busca abrange os ${loaded} de ${total} repositórios carregados até agora.`,
    searchLoadMore: 'Carregar mais para buscar',
    private: 'Privado',
    linkedBadge: 'Vinculado',
    public: 'Público',
    defaultBranch: (branch) => branch,
    pageStatus: (page, pages, total, totalCount) => `Página ${page} de ${pages} · ${repositories(total, totalCount)}`,
    loadedCount: (count, value) =>
      plural('pt-BR', value, {
        one: `${count} repositório carregado`,
        many: `${count} de repositórios carregados`,
        other: `${count} repositórios carregados`,
      }),
    previousPage: 'Página anterior',
    nextPage: 'Próxima página',
    loadMore: 'Carregar mais',
    loadErrorTitle: 'Não foi possível carregar seus repositórios',
    pageErrorTitle: 'Não foi possível carregar mais repositórios',
    noneSelected: 'Escolha o repositório para o código deste app.',
    noProject: 'Crie um app primeiro e depois salve o código dele aqui.',
    building: 'Você poderá salvar o código quando as alterações terminarem.',
    link: (fullName) => `Usar ${fullName}`,
    linking: 'Escolhendo…',
    linkedTitle: (fullName) => `Seu código vai para ${fullName}`,
    branchLabel: 'Branch',
    openRepository: (fullName) => `Abrir ${fullName}`,
    unsafeUrl: 'Não é um endereço web',
    linkErrorTitle: 'Não foi possível escolher esse repositório',
    linkFailedTitle: (fullName) => `Não foi possível escolher ${fullName}`,
    pushHeading: 'Ou salvar em um repositório novo',
    pushTo: (fullName) => `Salvar o código em ${fullName}`,
    pushing: 'Salvando…',
    newRepositoryLabel: 'Nome do novo repositório',
    newRepositoryHint: 'Criado na sua conta se ainda não existir. Para outro dono, use dono/nome.',
    newRepositoryRequired: 'Informe o nome do repositório.',
    ownerUnknown: 'Conecte o GitHub primeiro ou use dono/nome.',
    pushNew: 'Criar e salvar',
    pushedCreated: (fullName) => `${fullName} criado e seu código salvo`,
    pushedExisting: (fullName) => `Seu código foi salvo em ${fullName}`,
    pushErrorTitle: 'Seu código não foi salvo',
  },
  planList: {
    regionLabel: 'Planos',
    heading: 'Planos',
    loading: 'Carregando planos…',
    empty: 'Nenhum plano disponível.',
    errorTitle: 'Não foi possível carregar os planos',
    retry: 'Tentar de novo',
    free: 'Grátis',
    customPrice: 'Preço sob consulta',
    perMonth: (price) => `${price} por mês`,
    choose: (plan) => `Escolher ${plan}`,
  },
  errors: {
    kinds: {
      unauthorized: 'Este recurso não está disponível agora. Avise o responsável pelo site.',
      token_expired: 'Este recurso precisa de atenção do responsável pelo site. Avise-o.',
      suspended: 'Este recurso está pausado no momento. Fale com o responsável pelo site.',
      insufficient_credits: 'Seus créditos acabaram. Compre mais créditos para continuar.',
      forbidden: 'Você não tem acesso a isto. Pergunte ao responsável pelo site se acha que deveria ter.',
      not_found: 'Não encontramos isso. Pode ter sido removido.',
      validation: 'Confira o que você digitou e tente de novo.',
      rate_limited: 'Muitas solicitações em pouco tempo. Espere um pouco e tente de novo.',
      conflict: 'Isto mudou nesse meio-tempo. Atualize a página e tente de novo.',
      upstream: 'Algo deu errado do nosso lado. Tente de novo daqui a pouco.',
      network: 'Não conseguimos acessar o serviço. Verifique sua conexão e tente de novo.',
      protocol: 'Recebemos uma resposta que não entendemos. Tente de novo daqui a pouco.',
      aborted: 'Cancelado.',
    },
    rateLimitedFor: (seconds) => `Muitas solicitações em pouco tempo. Você pode tentar de novo em ${seconds} s.`,
    rateLimitOver: 'Você já pode tentar de novo.',
    codes: {
      project_not_found: 'Este projeto não foi encontrado. Pode ter sido removido; comece um novo.',
      project_forbidden: 'Este projeto não está disponível para você. Comece um novo.',
      provider_not_found: 'Não é possível publicar neste provedor.',
      account_taken: 'Esta conta de hospedagem já está conectada a outra pessoa aqui. Use um token de outra conta.',
      connection_not_found: 'Sua conta ainda não está conectada. Conecte-a para continuar.',
    },
    connectionMissing: {
      deployment: 'Sua conta de hospedagem ainda não está conectada. Conecte-a para publicar.',
      deploymentConnection: 'Sua conta de hospedagem ainda não está conectada. Conecte-a para publicar.',
      codehostConnection: 'O GitHub ainda não está conectado. Conecte-o para continuar.',
      repositories: 'O GitHub ainda não está conectado. Conecte-o para ver seus repositórios.',
      repository: 'O GitHub ainda não está conectado. Conecte-o para salvar seu código.',
    },
    notFound: {
      project: 'Este projeto não foi encontrado. Pode ter sido removido; comece um novo.',
      generation: 'Este projeto não foi encontrado. Pode ter sido removido; comece um novo.',
      repository: 'Esse repositório não foi encontrado. Confira o nome ou conecte o GitHub de novo.',
    },
    conflict: {
      deploymentConnection:
        'Esta conta de hospedagem já está conectada a outra pessoa aqui. Use um token de outra conta.',
    },
    details: 'Detalhes',
    retry: 'Tentar de novo',
    retryIn: (seconds) => `Tentar de novo em ${seconds} s`,
    quotaExceeded: (limit, period, when, limitCount) => {
      const builds = plural('pt-BR', limitCount, {
        one: `sua ${limit} criação`,
        many: `suas ${limit} de criações`,
        other: `suas ${limit} criações`,
      });
      switch (period) {
        case 'day':
          return `Você já usou ${builds} de hoje. Mais a partir de ${when}.`;
        case 'week':
          return `Você já usou ${builds} desta semana. Mais a partir de ${when}.`;
        case 'month':
          return `Você já usou ${builds} deste mês. Mais a partir de ${when}.`;
        default:
          return `Você já usou ${builds} por enquanto. Mais a partir de ${when}.`;
      }
    },
  },
};
