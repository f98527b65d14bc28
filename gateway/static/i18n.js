// Every word a player reads: pt-BR first (the players' words, /work/shared/GLOSSARY.md), English second.
// Pure module: no DOM access except through setLang/applyLang, so it can be unit-tested in node.

export const LANGS = ['pt-BR', 'en'];
const LANG_KEY = 'mm.lang';

const plural = (n, one, other) => (n === 1 ? one : other);

const pt = {
  'app.title': 'Mau-Mau Online',
  'app.tagline': 'O melhor lugar para jogar Mau-Mau com os amigos',
  'lang.toggle': 'EN',
  'lang.toggle.label': 'Switch to English',
  'deck.label': 'Desenho do baralho',
  'deck.classic': 'Clássico',
  'deck.fourcolor': 'Quatro cores',
  'deck.night': 'Noite',
  'deck.tropical': 'Tropical',
  'help.label': 'Como jogar (passo a passo)',
  'home.link': 'Início',
  'conn.reconnecting': 'Reconectando…',
  'conn.connecting': 'Conectando…',
  'conn.offline': 'Sem conexão. Tentando de novo…',
  'loading': 'Carregando…',
  'close': 'Fechar',
  'cancel': 'Cancelar',
  'you': 'Você',
  'you_obj': 'você',
  'bot': 'robô',
  'seat': v => `Lugar ${v.n + 1}`,
  'empty_seat': 'Lugar vazio',

  // name / session
  'name.title': 'Qual é o seu nome?',
  'name.placeholder': 'Seu nome',
  'name.save': 'ENTRAR',
  'name.change': 'Trocar nome',
  'name.hello': v => `Olá, ${v.name}!`,
  'name.needed_for_table': 'Para entrar na mesa, diga seu nome.',
  'name.empty': 'Escreva um nome.',

  // lobby
  'create.title': 'Criar uma mesa',
  'create.ruleset': 'Regra da mesa',
  'create.options': 'Opções',
  'create.house': 'Regras da casa',
  'create.seats': 'Lugares',
  'create.watch': 'Só quero assistir (mesa de robôs)',
  'create.submit': 'CRIAR MESA',
  'create.default': 'padrão',
  'mine.title': 'Minhas mesas',
  'mine.none': 'Você ainda não está em nenhuma mesa.',
  'mine.your_turn': 'Sua vez!',
  'mine.turn_of': v => `Vez de ${v.name}`,
  'mine.open': 'Abrir',
  'mine.refresh': 'Atualizar',
  'join.by_link': 'Tem um convite? Cole o link da mesa',
  'join.go': 'IR',
  'join.bad_link': 'Esse link não parece ser de uma mesa.',
  'ago.now': 'agora',
  'ago.min': v => `há ${v.n} min`,
  'ago.hour': v => `há ${v.n} h`,
  'ago.day': v => `há ${v.n} ${plural(v.n, 'dia', 'dias')}`,

  'status.lobby': 'Aguardando jogadores',
  'status.playing': 'Em jogo',
  'status.over': 'Partida terminada',
  'status.ended': 'Encerrada',

  // rulesets
  'rs.classic32': 'Clássico 32',
  'rs.classic52': 'Clássico 52',
  'rs.candeias': 'Candeias',
  'rs.colors108': 'Cores 108',
  'rs.classic32.desc': 'O Mau-Mau tradicional: baralho de 32 cartas (do 7 ao ás), 2 a 4 jogadores, 5 cartas cada. Jogue o mesmo naipe ou o mesmo valor. O valete muda o naipe (valete sobre valete não vale), o 7 faz o próximo comprar 2 (e a compra acumula), o 8 faz o próximo perder a vez. Diga "Mau" ao jogar a penúltima carta. Quem bate leva os pontos das cartas dos outros.',
  'rs.classic52.desc': 'Baralho de 52 cartas, 2 a 10 jogadores (dois baralhos a partir de 7). O valete vale sobre qualquer carta e escolhe o naipe; o 7 faz comprar 2, o 8 pula o próximo. Só compra quem não tem jogada. Diga "Mau" com uma carta e "Mau Mau" ao bater — quem esquece pode ser denunciado e compra 2. Os pontos contam contra: vence quem tiver menos.',
  'rs.candeias.desc': 'Dois baralhos (104 cartas), 2 a 5 jogadores, 6 cartas, partida de 5 rodadas, sentido anti-horário. Cartas especiais: A pula, 7 faz comprar 2, 8 e K castigam o jogador anterior, J muda o naipe, Q inverte o sentido. Tem Queima, Carta Dupla (×2) e Ação Rápida (⚡) fora da vez. Vence quem tiver menos pontos.',
  'rs.colors108.desc': 'Baralho de cores (108 cartas), 2 a 10 jogadores, 7 cartas, sentido anti-horário. Jogue a mesma cor ou o mesmo número. Compre 2, pula a vez, mudança de sentido, curinga e curinga +4 (quem desconfia grita MENTIRA!). Avise a "última" carta. Quem bate leva os pontos dos outros.',

  // options
  'opt.target_points': 'Meta de pontos',
  'opt.target_points.classic32': 'Padrão: 100 por jogador (200 com dois, 300 com três, 400 com quatro).',
  'opt.target_points.classic52': 'A partida acaba quando alguém chega à meta; vence quem tiver menos pontos. Padrão: 100.',
  'opt.target_points.colors108': 'Ganha quem chegar primeiro à meta. Padrão: 500.',
  'opt.target_points.candeias': 'A partida tem 5 rodadas; vence quem tiver menos pontos.',
  'opt.turn_seconds': 'Tempo de jogada',
  'opt.turn_seconds.hint': 'Quando o tempo acaba, o sistema joga por você.',
  'opt.turn_seconds.none': 'sem limite',
  'opt.scoring': 'Pontuação',
  'opt.scoring.points': 'Contar pontos (vence quem tiver menos)',
  'opt.scoring.none': 'Sem pontos: cada rodada é uma partida',
  'opt.ace': 'O ás',
  'opt.ace.none': 'sem efeito',
  'opt.ace.draw_one': 'todos os outros compram 1',
  'opt.ace.skip_all': 'todos os outros perdem a vez (joga de novo)',
  'opt.seven_chain_limit': 'Cadeia do 7',
  'opt.seven_chain_limit.none': 'sem limite (4, 6, 8…)',
  'opt.seven_chain_limit.1': 'só mais um pode responder (no máximo 4)',
  'opt.deck': 'Baralho',
  'opt.deck.52': '52 cartas',
  'opt.deck.32': '32 cartas (do 7 ao ás)',
  'opt.quick': 'Partida rápida: ganha quem bater primeiro, sem pontos',
  'opt.teams': 'Jogo em duplas (4 jogadores, parceiros frente a frente)',
  'opt.seven_stacking': 'O 7 acumula: dá para responder um 7 com outro 7',
  'opt.eight_bounce': 'O 8 devolvido: quem recebe um 8 pode passar o pulo adiante com outro 8',
  'opt.nine_draws': 'O 9 faz o próximo comprar 3',
  'opt.jack_on_jack': 'Valete sobre valete vale',
  'opt.mau_mau_call': 'Dizer "Mau-Mau" ao bater',
  'opt.mau_mau_call.none': 'não precisa',
  'opt.mau_mau_call.always': 'sempre',
  'opt.mau_mau_call.jack_only': 'só ao bater com valete',
  'opt.mau_penalty': 'Castigo por esquecer o Mau',
  'opt.mau_penalty.1': '1 carta',
  'opt.mau_penalty.2': '2 cartas',
  'opt.hand_size': 'Cartas na mão',
  'opt.cards': v => `${v.n} cartas`,
  'opt.seconds': v => (v.n >= 60 ? `${v.n / 60} min` : `${v.n} s`),

  // table lobby
  'lobby.title': 'Mesa',
  'lobby.invite': 'Convite',
  'lobby.invite.hint': 'Mande o link da mesa para os amigos: quem abrir senta num lugar livre.',
  'lobby.share': 'COMPARTILHAR',
  'lobby.copy': 'COPIAR LINK',
  'lobby.copied': 'Link copiado!',
  'lobby.bots': 'COMPLETAR COM ROBÔS',
  'lobby.bot_level': 'Nível dos robôs',
  'lobby.level.': 'misturado',
  'lobby.level.weak': 'fácil',
  'lobby.level.medium': 'médio',
  'lobby.level.strong': 'difícil',
  'lobby.start': 'COMEÇAR',
  'lobby.waiting_start': 'Aguardando quem criou a mesa começar a partida.',
  'lobby.need_players': v => `São precisos pelo menos ${v.n} jogadores.`,
  'lobby.leave': 'SAIR DA MESA',
  'lobby.options': 'Regras desta mesa',
  'join.offer': 'Há um lugar livre nesta mesa.',
  'join.sit': 'SENTAR À MESA',
  'join.watch': 'SÓ ASSISTIR',
  'join.watching': 'Você está assistindo.',
  'join.full': 'A mesa está cheia ou a partida já começou: você assiste.',
  'join.no_invite': 'Você está assistindo. Para sentar, é preciso o convite (link da mesa).',

  // table
  'table.turn.you': 'Sua vez!',
  'table.turn.of': v => `Vez de ${v.name}`,
  'table.turn.choose_you': 'Sua vez: escolha o naipe',
  'table.direction': 'Sentido',
  'table.cw': 'horário',
  'table.ccw': 'anti-horário',
  'table.stock': 'Monte',
  'table.stock_count': v => `${v.n} ${plural(v.n, 'carta', 'cartas')} no monte`,
  'table.pile': 'Pilha de descarte',
  'table.top': v => `Carta de cima: ${v.card}`,
  'table.follow': 'Vale',
  'table.follow_suit': v => `Naipe pedido: ${v.suit}`,
  'table.follow_color': v => `Cor pedida: ${v.color}`,
  'table.follow_suit_plain': v => `Naipe: ${v.suit}`,
  'table.follow_color_plain': v => `Cor: ${v.color}`,
  'table.pending': v => `Compra acumulada: +${v.n}`,
  'table.cards': v => `${v.n} ${plural(v.n, 'carta', 'cartas')}`,
  'table.points': v => `${v.n} pts`,
  'table.my_hand': 'Sua mão',
  'table.spectator': 'Você está assistindo: quem assiste não vê as cartas de ninguém.',
  'table.draw': 'COMPRAR',
  'table.draw_n': v => `COMPRAR ${v.n}`,
  'table.pass': 'PASSAR',
  'table.say_mau': 'DIZER MAU',
  'table.say_maumau': 'DIZER MAU-MAU',
  'table.say_last': 'ÚLTIMA',
  'table.said': 'dito!',
  'table.burn': 'Queima',
  'table.double': 'Carta Dupla ×2',
  'table.double_pick': 'Escolha a dupla',
  'table.quick': 'Ação Rápida ⚡',
  'table.liar': 'MENTIRA!',
  'table.challenge': 'Esqueceu o Mau!',
  'table.challenge_last': 'ÚLTIMA! (denunciar)',
  'table.which_suit': 'QUAL NAIPE?',
  'table.which_color': 'QUAL COR?',
  'table.giveup': 'DESISTIR',
  'table.giveup_confirm': 'Desistir perde a partida. Tem certeza?',
  'table.giveup_yes': 'SIM, DESISTIR',
  'table.absence': 'ENCERRAR POR AUSÊNCIA',
  'table.absent': v => `${v.name} está ausente há mais de 48 horas.`,
  'table.log': 'Registro',
  'table.chat': 'Conversa',
  'table.chat_placeholder': 'Escreva para a mesa…',
  'table.chat_send': 'ENVIAR',
  'table.chat_readonly': 'Quem assiste lê a conversa, mas não escreve.',
  'table.scores': 'Placar',
  'table.goal': v => `Meta: ${v.n} pontos`,
  'table.goal_low': v => `Meta: ${v.n} pontos (vence quem tiver menos)`,
  'table.rounds_of': v => `Rodada ${v.n} de ${v.total}`,
  'table.quick_game': 'Partida rápida',
  'table.no_points': 'Sem pontos',
  'table.round_no': v => `Rodada ${v.n}`,
  'table.teams': 'Jogo em duplas',
  'table.timer': v => `Tempo de jogada: ${v.s}`,
  'table.missed': 'não avisou!',
  'table.dealer': 'deu as cartas',
  'table.winner_badge': 'bateu',
  'table.playable_hint': 'As cartas que você pode jogar estão em destaque.',

  // round review / match end
  'review.title': 'Fim da rodada',
  'review.title_candeias': 'Conferência da Rodada',
  'review.went_out': v => `${v.name} bateu!`,
  'review.you_went_out': 'Você bateu!',
  'review.blocked': 'A MESA TRAVOU',
  'review.blocked_win': v => `${v.name} tem menos pontos na mão e vence a rodada.`,
  'review.hand_points': v => `${v.n} na mão`,
  'review.round_points': 'Rodada',
  'review.total': 'Total',
  'review.next': 'PRÓXIMA RODADA',
  'review.hide': 'Ver a mesa',
  'review.show': 'Ver a conferência',
  'review.doubled': 'Bateu com valete: pontos em dobro!',
  'match.over': 'Fim da partida',
  'match.winner': v => `${v.names} ${v.n > 1 ? 'venceram' : 'venceu'} a partida!`,
  'match.you_won': 'Você venceu a partida!',
  'match.rematch': 'REVANCHE',
  'match.rematch_no': 'NÃO, OBRIGADO',
  'match.rematch_votes': v => `Querem revanche: ${v.names}`,
  'match.rematch_waiting': 'Aguardando os outros aceitarem a revanche…',
  'match.rematch_closed': 'A revanche não aconteceu.',
  'match.ended.gave_up': v => `${v.name} desistiu.`,
  'match.ended.absence': v => `Partida encerrada pela ausência de ${v.name}.`,
  'match.ended.expired': 'Mesa expirada: 7 dias sem jogadas, sem vencedor.',
  'match.home': 'VOLTAR AO INÍCIO',

  // event log
  'log.created': 'Mesa criada.',
  'log.joined': v => `${v.name} sentou à mesa.`,
  'log.joined_bot': v => `${v.name} (robô) sentou à mesa.`,
  'log.left': v => `${v.name} saiu da mesa.`,
  'log.match_started': v => `A partida ${v.n} começou!`,
  'log.dealt': v => `Rodada ${v.n}: ${v.dealer} deu as cartas.`,
  'log.dealt_you': v => `Rodada ${v.n}: você recebeu ${v.cards}.`,
  'log.played': v => `${v.name} jogou ${v.card}`,
  'log.played_you': v => `Você jogou ${v.card}`,
  'log.chose': v => ` e pediu ${v.suit}`,
  'log.announce.mau': ' — "Mau!"',
  'log.announce.maumau': ' — "Mau-Mau!"',
  'log.announce.last': ' — "Última!"',
  'log.double': v => `${v.name} jogou a Carta Dupla ${v.card} ×2`,
  'log.double_you': v => `Você jogou a Carta Dupla ${v.card} ×2`,
  'log.burn': v => `${v.name} queimou ${v.card} (Queima)`,
  'log.burn_you': v => `Você queimou ${v.card} (Queima)`,
  'log.quick': v => `${v.name} fez Ação Rápida ⚡ com ${v.card}`,
  'log.quick_you': v => `Você fez Ação Rápida ⚡ com ${v.card}`,
  'log.choose': v => `${v.name} pediu ${v.suit}.`,
  'log.pass': v => `${v.name} passou a vez.`,
  'log.pass_you': 'Você passou a vez.',
  'log.drew': v => `${v.name} comprou ${v.n} ${plural(v.n, 'carta', 'cartas')}.`,
  'log.drew_you': v => `Você comprou ${v.n} ${plural(v.n, 'carta', 'cartas')}${v.cards ? ': ' + v.cards : ''}.`,
  'log.drew_none': v => `${v.name} não conseguiu comprar: o monte acabou.`,
  'log.penalty': v => `${v.name} comprou ${v.n} ${plural(v.n, 'carta', 'cartas')} de castigo.`,
  'log.penalty_you': v => `Você comprou ${v.n} ${plural(v.n, 'carta', 'cartas')} de castigo${v.cards ? ': ' + v.cards : ''}.`,
  'log.challenge': v => `${v.name} denunciou ${v.target}: esqueceu de avisar!`,
  'log.liar': v => `${v.name} gritou MENTIRA!`,
  'log.reshuffled': 'A pilha foi embaralhada e virou o novo monte.',
  'log.round_won': v => `${v.name} bateu e venceu a rodada!`,
  'log.round_blocked': v => `A MESA TRAVOU — ${v.name} vence a rodada.`,
  'log.match_won': v => `${v.names} ${v.n > 1 ? 'venceram' : 'venceu'} a partida!`,
  'log.gave_up': v => `${v.name} desistiu.`,
  'log.absence_end': v => `Partida encerrada pela ausência de ${v.name}.`,
  'log.expired': 'Mesa expirada.',
  'log.rematch_yes': v => `${v.name} quer revanche.`,
  'log.rematch_no': v => `${v.name} não quer revanche.`,
  'log.absent': v => `${v.name} está ausente há 48 horas.`,
  'log.rematch_closed': 'A revanche não aconteceu.',
  'log.seed': 'Embaralhamento conferível: a semente da rodada foi revelada.',

  // suits & colours
  'suit.C': 'paus', 'suit.D': 'ouros', 'suit.H': 'copas', 'suit.S': 'espadas',
  'color.R': 'vermelho', 'color.G': 'verde', 'color.B': 'azul', 'color.Y': 'amarelo',
  'rank.J': 'valete', 'rank.Q': 'dama', 'rank.K': 'rei', 'rank.A': 'ás',
  'card.of': v => `${v.rank} de ${v.suit}`,
  'card.colour': v => `${v.value} ${v.color}`,
  'card.skip': 'pula a vez',
  'card.rev': 'mudança de sentido',
  'card.+2': 'compre 2',
  'card.W': 'curinga',
  'card.W+4': 'curinga +4',
  'card.back': 'carta virada',

  // errors (codes of docs/table.md, the chat and the socket)
  'err.not_your_turn': 'Não é a sua vez',
  'err.illegal_card': 'Essa carta não pode ser jogada agora',
  'err.illegal_action': 'Essa jogada não vale agora',
  'err.card_not_in_hand': 'Você não tem essa carta',
  'err.round_over': 'A rodada já acabou',
  'err.bad_request': 'Pedido inválido',
  'err.unknown_table': 'Essa mesa não existe',
  'err.table_exists': 'Essa mesa já existe',
  'err.bad_options': 'Essas opções não valem para esta regra',
  'err.bad_invitation': 'Esse convite não é desta mesa',
  'err.not_seated': 'Só quem está sentado à mesa pode fazer isso',
  'err.wrong_seat': 'Esse lugar não é seu',
  'err.not_creator': 'Só quem criou a mesa pode fazer isso',
  'err.table_full': 'A mesa está cheia',
  'err.match_started': 'A partida já começou',
  'err.not_enough_players': 'Faltam jogadores para começar',
  'err.creator_stays': 'Quem criou a mesa não pode sair antes de começar',
  'err.not_playing': 'Nenhuma partida em andamento nesta mesa',
  'err.round_in_play': 'A rodada ainda está em andamento',
  'err.no_rematch': 'Não há revanche depois desta partida',
  'err.not_absent': 'Ninguém está deixando a mesa esperando',
  'err.table_closed': 'A mesa foi encerrada',
  'err.conflict_retry_exhausted': 'A mesa está agitada: tente de novo',
  'err.unavailable': 'O servidor não respondeu: tente de novo',
  'err.too_long': 'Mensagem longa demais',
  'err.empty': 'A mensagem está vazia',
  'err.too_fast': 'Calma! Muitas mensagens seguidas',
  'err.too_large': 'Mensagem grande demais',
  'err.bad_frame': 'Mensagem inválida',
  'err.bad_command': 'Comando inválido',
  'err.no_session': 'Entre com o seu nome primeiro',
  'err.network': 'Sem conexão com o servidor',
  'err.too_many_requests': 'Muitos pedidos seguidos: espere um minuto e tente de novo',
  'err.token_in_url': 'Sessão enviada de um jeito inseguro: recarregue a página',
  'err.too_many_tables': 'Mesas demais abertas nesta aba: feche alguma',
  'err.too_many_sockets': 'Abas demais abertas: feche alguma e recarregue',
  'err.unknown': v => `Algo deu errado (${v.code})`,

  // tutorial
  'tut.title': 'Como jogar',
  'tut.step': v => `Passo ${v.n} de ${v.total}`,
  'tut.prev': 'ANTERIOR',
  'tut.next': 'PRÓXIMO',
  'tut.done': 'JOGAR!',
  'tut.which': 'Passo a passo da regra',
};

const en = {
  'app.title': 'Mau-Mau Online',
  'app.tagline': 'The best place to play Mau-Mau with friends',
  'lang.toggle': 'PT',
  'lang.toggle.label': 'Mudar para português',
  'deck.label': 'Deck design',
  'deck.classic': 'Classic',
  'deck.fourcolor': 'Four colours',
  'deck.night': 'Night',
  'deck.tropical': 'Tropical',
  'help.label': 'How to play (step by step)',
  'home.link': 'Home',
  'conn.reconnecting': 'Reconnecting…',
  'conn.connecting': 'Connecting…',
  'conn.offline': 'No connection. Trying again…',
  'loading': 'Loading…',
  'close': 'Close',
  'cancel': 'Cancel',
  'you': 'You',
  'you_obj': 'you',
  'bot': 'bot',
  'seat': v => `Seat ${v.n + 1}`,
  'empty_seat': 'Empty seat',

  'name.title': 'What is your name?',
  'name.placeholder': 'Your name',
  'name.save': 'ENTER',
  'name.change': 'Change name',
  'name.hello': v => `Hello, ${v.name}!`,
  'name.needed_for_table': 'Tell us your name to enter the table.',
  'name.empty': 'Write a name.',

  'create.title': 'Create a table',
  'create.ruleset': 'Table rules',
  'create.options': 'Options',
  'create.house': 'House rules',
  'create.seats': 'Seats',
  'create.watch': 'I only want to watch (a table of bots)',
  'create.submit': 'CREATE TABLE',
  'create.default': 'default',
  'mine.title': 'My tables',
  'mine.none': 'You are not at any table yet.',
  'mine.your_turn': 'Your turn!',
  'mine.turn_of': v => `${v.name}'s turn`,
  'mine.open': 'Open',
  'mine.refresh': 'Refresh',
  'join.by_link': 'Got an invitation? Paste the table link',
  'join.go': 'GO',
  'join.bad_link': 'That does not look like a table link.',
  'ago.now': 'just now',
  'ago.min': v => `${v.n} min ago`,
  'ago.hour': v => `${v.n} h ago`,
  'ago.day': v => `${v.n} ${plural(v.n, 'day', 'days')} ago`,

  'status.lobby': 'Waiting for players',
  'status.playing': 'Playing',
  'status.over': 'Match over',
  'status.ended': 'Ended',

  'rs.classic32': 'Classic 32',
  'rs.classic52': 'Classic 52',
  'rs.candeias': 'Candeias',
  'rs.colors108': 'Colours 108',
  'rs.classic32.desc': 'Traditional Mau-Mau: a 32-card deck (7 to ace), 2 to 4 players, 5 cards each. Play the same suit or the same rank. A Jack changes the suit (no Jack on a Jack), a 7 makes the next player draw 2 (and the draw stacks up), an 8 skips the next player. Say "Mau" when you play your second-to-last card. Whoever goes out collects the points left in the other hands.',
  'rs.classic52.desc': '52-card deck, 2 to 10 players (two decks from 7). A Jack goes on anything and picks the suit; a 7 makes the next player draw 2, an 8 skips. You draw only when you cannot play. Say "Mau" with one card left and "Mau Mau" when you go out — forget it and you can be challenged for 2 cards. Points count against you: the lowest total wins.',
  'rs.candeias.desc': 'Two decks (104 cards), 2 to 5 players, 6 cards, a match of 5 rounds, played counter-clockwise. Special cards: A skips, 7 makes the next draw 2, 8 and K punish the previous player, J changes the suit, Q reverses. With burns, doubles (×2) and quick actions (⚡) out of turn. The lowest total wins.',
  'rs.colors108.desc': 'Colour deck (108 cards), 2 to 10 players, 7 cards, played counter-clockwise. Play the same colour or the same number. Draw two, skip, reverse, wild and wild draw four (shout LIAR! if you doubt it). Call your "last card". Whoever goes out collects the others\' points.',

  'opt.target_points': 'Points goal',
  'opt.target_points.classic32': 'Default: 100 per player (200 with two, 300 with three, 400 with four).',
  'opt.target_points.classic52': 'The match ends when someone reaches the goal; the lowest total wins. Default: 100.',
  'opt.target_points.colors108': 'The first to reach the goal wins. Default: 500.',
  'opt.target_points.candeias': 'The match has 5 rounds; the lowest total wins.',
  'opt.turn_seconds': 'Turn time',
  'opt.turn_seconds.hint': 'When the time runs out, the system plays for you.',
  'opt.turn_seconds.none': 'no limit',
  'opt.scoring': 'Scoring',
  'opt.scoring.points': 'Keep score (lowest total wins)',
  'opt.scoring.none': 'No points: each round is a match',
  'opt.ace': 'The Ace',
  'opt.ace.none': 'no effect',
  'opt.ace.draw_one': 'everyone else draws 1',
  'opt.ace.skip_all': 'everyone else loses a turn (play again)',
  'opt.seven_chain_limit': '7 chain',
  'opt.seven_chain_limit.none': 'no limit (4, 6, 8…)',
  'opt.seven_chain_limit.1': 'only one more may answer (4 at most)',
  'opt.deck': 'Deck',
  'opt.deck.52': '52 cards',
  'opt.deck.32': '32 cards (7 to ace)',
  'opt.quick': 'Quick game: the first one out wins, no points',
  'opt.teams': 'Teams (4 players, partners sit opposite)',
  'opt.seven_stacking': 'The 7 stacks: a 7 may be answered with a 7',
  'opt.eight_bounce': '8 bounce: a player skipped by an 8 may pass the skip on with another 8',
  'opt.nine_draws': 'A 9 makes the next player draw 3',
  'opt.jack_on_jack': 'Jack on Jack allowed',
  'opt.mau_mau_call': 'Say "Mau-Mau" when going out',
  'opt.mau_mau_call.none': 'not needed',
  'opt.mau_mau_call.always': 'always',
  'opt.mau_mau_call.jack_only': 'only when going out with a Jack',
  'opt.mau_penalty': 'Penalty for a missed "Mau"',
  'opt.mau_penalty.1': '1 card',
  'opt.mau_penalty.2': '2 cards',
  'opt.hand_size': 'Cards dealt',
  'opt.cards': v => `${v.n} cards`,
  'opt.seconds': v => (v.n >= 60 ? `${v.n / 60} min` : `${v.n} s`),

  'lobby.title': 'Table',
  'lobby.invite': 'Invitation',
  'lobby.invite.hint': 'Send the invitation link to your friends: whoever opens it takes a free seat.',
  'lobby.share': 'SHARE',
  'lobby.copy': 'COPY LINK',
  'lobby.copied': 'Link copied!',
  'lobby.bots': 'FILL WITH BOTS',
  'lobby.bot_level': 'Bot level',
  'lobby.level.': 'mixed',
  'lobby.level.weak': 'easy',
  'lobby.level.medium': 'medium',
  'lobby.level.strong': 'hard',
  'lobby.start': 'START',
  'lobby.waiting_start': 'Waiting for the table\'s creator to start the match.',
  'lobby.need_players': v => `At least ${v.n} players are needed.`,
  'lobby.leave': 'LEAVE THE TABLE',
  'lobby.options': 'This table\'s rules',
  'join.offer': 'There is a free seat at this table.',
  'join.sit': 'SIT DOWN',
  'join.watch': 'JUST WATCH',
  'join.watching': 'You are watching.',
  'join.full': 'The table is full or the match has begun: you watch.',
  'join.no_invite': 'You are watching. To sit down you need the invitation link.',

  'table.turn.you': 'Your turn!',
  'table.turn.of': v => `${v.name}'s turn`,
  'table.turn.choose_you': 'Your turn: choose the suit',
  'table.direction': 'Direction',
  'table.cw': 'clockwise',
  'table.ccw': 'counter-clockwise',
  'table.stock': 'Stock',
  'table.stock_count': v => `${v.n} ${plural(v.n, 'card', 'cards')} in the stock`,
  'table.pile': 'Discard pile',
  'table.top': v => `Top card: ${v.card}`,
  'table.follow': 'Follow',
  'table.follow_suit': v => `Suit to follow: ${v.suit}`,
  'table.follow_color': v => `Colour to follow: ${v.color}`,
  'table.follow_suit_plain': v => `Suit: ${v.suit}`,
  'table.follow_color_plain': v => `Colour: ${v.color}`,
  'table.pending': v => `Draw stacked: +${v.n}`,
  'table.cards': v => `${v.n} ${plural(v.n, 'card', 'cards')}`,
  'table.points': v => `${v.n} pts`,
  'table.my_hand': 'Your hand',
  'table.spectator': 'You are watching: spectators see nobody\'s cards.',
  'table.draw': 'DRAW',
  'table.draw_n': v => `DRAW ${v.n}`,
  'table.pass': 'PASS',
  'table.say_mau': 'SAY MAU',
  'table.say_maumau': 'SAY MAU-MAU',
  'table.say_last': 'LAST CARD',
  'table.said': 'said!',
  'table.burn': 'Burn',
  'table.double': 'Double ×2',
  'table.double_pick': 'Pick the pair',
  'table.quick': 'Quick action ⚡',
  'table.liar': 'LIAR!',
  'table.challenge': 'Missed "Mau"!',
  'table.challenge_last': 'LAST CARD! (challenge)',
  'table.which_suit': 'WHICH SUIT?',
  'table.which_color': 'WHICH COLOUR?',
  'table.giveup': 'GIVE UP',
  'table.giveup_confirm': 'Giving up loses the match. Are you sure?',
  'table.giveup_yes': 'YES, GIVE UP',
  'table.absence': 'END BY ABSENCE',
  'table.absent': v => `${v.name} has been away for more than 48 hours.`,
  'table.log': 'Log',
  'table.chat': 'Chat',
  'table.chat_placeholder': 'Write to the table…',
  'table.chat_send': 'SEND',
  'table.chat_readonly': 'Spectators read the chat but do not write.',
  'table.scores': 'Score',
  'table.goal': v => `Goal: ${v.n} points`,
  'table.goal_low': v => `Goal: ${v.n} points (lowest total wins)`,
  'table.rounds_of': v => `Round ${v.n} of ${v.total}`,
  'table.quick_game': 'Quick game',
  'table.no_points': 'No points',
  'table.round_no': v => `Round ${v.n}`,
  'table.teams': 'Teams',
  'table.timer': v => `Turn time: ${v.s}`,
  'table.missed': 'did not call!',
  'table.dealer': 'dealt',
  'table.winner_badge': 'out',
  'table.playable_hint': 'The cards you may play are highlighted.',

  'review.title': 'End of the round',
  'review.title_candeias': 'Round review',
  'review.went_out': v => `${v.name} went out!`,
  'review.you_went_out': 'You went out!',
  'review.blocked': 'THE TABLE IS BLOCKED',
  'review.blocked_win': v => `${v.name} has the fewest points in hand and wins the round.`,
  'review.hand_points': v => `${v.n} in hand`,
  'review.round_points': 'Round',
  'review.total': 'Total',
  'review.next': 'NEXT ROUND',
  'review.hide': 'See the table',
  'review.show': 'See the review',
  'review.doubled': 'Went out with a Jack: points doubled!',
  'match.over': 'Match over',
  'match.winner': v => `${v.names} won the match!`,
  'match.you_won': 'You won the match!',
  'match.rematch': 'REMATCH',
  'match.rematch_no': 'NO, THANKS',
  'match.rematch_votes': v => `Want a rematch: ${v.names}`,
  'match.rematch_waiting': 'Waiting for the others to accept the rematch…',
  'match.rematch_closed': 'The rematch did not happen.',
  'match.ended.gave_up': v => `${v.name} gave up.`,
  'match.ended.absence': v => `Match ended by ${v.name}'s absence.`,
  'match.ended.expired': 'Table expired: 7 days without a move, no winner.',
  'match.home': 'BACK HOME',

  'log.created': 'Table created.',
  'log.joined': v => `${v.name} sat down.`,
  'log.joined_bot': v => `${v.name} (bot) sat down.`,
  'log.left': v => `${v.name} left the table.`,
  'log.match_started': v => `Match ${v.n} started!`,
  'log.dealt': v => `Round ${v.n}: ${v.dealer} dealt.`,
  'log.dealt_you': v => `Round ${v.n}: you were dealt ${v.cards}.`,
  'log.played': v => `${v.name} played ${v.card}`,
  'log.played_you': v => `You played ${v.card}`,
  'log.chose': v => ` and asked for ${v.suit}`,
  'log.announce.mau': ' — "Mau!"',
  'log.announce.maumau': ' — "Mau-Mau!"',
  'log.announce.last': ' — "Last card!"',
  'log.double': v => `${v.name} played a double ${v.card} ×2`,
  'log.double_you': v => `You played a double ${v.card} ×2`,
  'log.burn': v => `${v.name} burned ${v.card}`,
  'log.burn_you': v => `You burned ${v.card}`,
  'log.quick': v => `${v.name} made a quick action ⚡ with ${v.card}`,
  'log.quick_you': v => `You made a quick action ⚡ with ${v.card}`,
  'log.choose': v => `${v.name} asked for ${v.suit}.`,
  'log.pass': v => `${v.name} passed.`,
  'log.pass_you': 'You passed.',
  'log.drew': v => `${v.name} drew ${v.n} ${plural(v.n, 'card', 'cards')}.`,
  'log.drew_you': v => `You drew ${v.n} ${plural(v.n, 'card', 'cards')}${v.cards ? ': ' + v.cards : ''}.`,
  'log.drew_none': v => `${v.name} could not draw: the stock is empty.`,
  'log.penalty': v => `${v.name} drew ${v.n} penalty ${plural(v.n, 'card', 'cards')}.`,
  'log.penalty_you': v => `You drew ${v.n} penalty ${plural(v.n, 'card', 'cards')}${v.cards ? ': ' + v.cards : ''}.`,
  'log.challenge': v => `${v.name} challenged ${v.target}: a missed call!`,
  'log.liar': v => `${v.name} shouted LIAR!`,
  'log.reshuffled': 'The pile was shuffled into a new stock.',
  'log.round_won': v => `${v.name} went out and won the round!`,
  'log.round_blocked': v => `THE TABLE IS BLOCKED — ${v.name} wins the round.`,
  'log.match_won': v => `${v.names} won the match!`,
  'log.gave_up': v => `${v.name} gave up.`,
  'log.absence_end': v => `Match ended by ${v.name}'s absence.`,
  'log.expired': 'The table expired.',
  'log.rematch_yes': v => `${v.name} wants a rematch.`,
  'log.rematch_no': v => `${v.name} declines the rematch.`,
  'log.absent': v => `${v.name} has been away for 48 hours.`,
  'log.rematch_closed': 'The rematch did not happen.',
  'log.seed': 'Checkable shuffle: the round\'s seed was revealed.',

  'suit.C': 'clubs', 'suit.D': 'diamonds', 'suit.H': 'hearts', 'suit.S': 'spades',
  'color.R': 'red', 'color.G': 'green', 'color.B': 'blue', 'color.Y': 'yellow',
  'rank.J': 'Jack', 'rank.Q': 'Queen', 'rank.K': 'King', 'rank.A': 'Ace',
  'card.of': v => `${v.rank} of ${v.suit}`,
  'card.colour': v => `${v.color} ${v.value}`,
  'card.skip': 'skip',
  'card.rev': 'reverse',
  'card.+2': 'draw two',
  'card.W': 'wild',
  'card.W+4': 'wild draw four',
  'card.back': 'face-down card',

  'err.not_your_turn': 'It is not your turn',
  'err.illegal_card': 'That card cannot be played now',
  'err.illegal_action': 'That move is not allowed now',
  'err.card_not_in_hand': 'You do not have that card',
  'err.round_over': 'The round is over',
  'err.bad_request': 'Invalid request',
  'err.unknown_table': 'There is no such table',
  'err.table_exists': 'That table exists already',
  'err.bad_options': 'Those options do not fit this ruleset',
  'err.bad_invitation': 'That invitation is not for this table',
  'err.not_seated': 'Only players seated at the table may do that',
  'err.wrong_seat': 'That seat is not yours',
  'err.not_creator': 'Only the table\'s creator may do that',
  'err.table_full': 'The table is full',
  'err.match_started': 'The match has started',
  'err.not_enough_players': 'Not enough players to start',
  'err.creator_stays': 'The table\'s creator cannot leave before the start',
  'err.not_playing': 'No match is being played at this table',
  'err.round_in_play': 'The round is still being played',
  'err.no_rematch': 'There is no rematch after this match',
  'err.not_absent': 'Nobody is keeping the table waiting',
  'err.table_closed': 'The table has ended',
  'err.conflict_retry_exhausted': 'The table is busy: try again',
  'err.unavailable': 'The server did not answer: try again',
  'err.too_long': 'Message too long',
  'err.empty': 'The message is empty',
  'err.too_fast': 'Slow down! Too many messages',
  'err.too_large': 'Message too large',
  'err.bad_frame': 'Invalid message',
  'err.bad_command': 'Invalid command',
  'err.no_session': 'Enter your name first',
  'err.network': 'No connection to the server',
  'err.too_many_requests': 'Too many requests in a row: wait a minute and try again',
  'err.token_in_url': 'Session sent in an unsafe way: reload the page',
  'err.too_many_tables': 'Too many tables open in this tab: close one',
  'err.too_many_sockets': 'Too many tabs open: close one and reload',
  'err.unknown': v => `Something went wrong (${v.code})`,

  'tut.title': 'How to play',
  'tut.step': v => `Step ${v.n} of ${v.total}`,
  'tut.prev': 'BACK',
  'tut.next': 'NEXT',
  'tut.done': 'PLAY!',
  'tut.which': 'Step by step for the rules',
};

export const STRINGS = { 'pt-BR': pt, en };

let current = 'pt-BR';
const listeners = new Set();

function storage() {
  try { return globalThis.localStorage || null; } catch { return null; }
}

export function initLang() {
  const saved = storage()?.getItem(LANG_KEY);
  current = LANGS.includes(saved) ? saved : 'pt-BR';
  applyLang();
  return current;
}

export function getLang() { return current; }

export function setLang(lang) {
  if (!LANGS.includes(lang) || lang === current) return;
  current = lang;
  storage()?.setItem(LANG_KEY, lang);
  applyLang();
  for (const fn of listeners) fn(lang);
}

export function toggleLang() { setLang(current === 'pt-BR' ? 'en' : 'pt-BR'); }

export function onLangChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

function applyLang() {
  if (globalThis.document) {
    document.documentElement.lang = current;
    document.title = t('app.title');
  }
}

/** The text for `key` in the current language (pt-BR when the English table lacks it). */
export function t(key, vars = {}, lang = current) {
  const entry = STRINGS[lang]?.[key] ?? pt[key];
  if (entry === undefined) return key;
  return typeof entry === 'function' ? entry(vars) : entry;
}

export function has(key) { return key in pt; }

/** A refusal code in the player's words. */
export function errorText(code, lang = current) {
  return has(`err.${code}`) ? t(`err.${code}`, {}, lang) : t('err.unknown', { code }, lang);
}

export const SUIT_SYMBOL = { C: '♣', D: '♦', H: '♥', S: '♠' };
const COLOR_LETTERS = 'RGBY';

function isColourName(name) {
  return /^(W|W\+4|[RGBY](\d|skip|rev|\+2))$/.test(name);
}

/** A card in a few characters, as the log shows it: "7♥", "J♠", "7 vermelho", "curinga +4". */
export function cardShort(name, lang = current) {
  if (!name) return '';
  if (isColourName(name)) {
    if (name === 'W' || name === 'W+4') return t(`card.${name}`, {}, lang);
    const color = t(`color.${name[0]}`, {}, lang);
    const v = name.slice(1);
    const value = /^\d$/.test(v) ? v : t(`card.${v}`, {}, lang);
    return t('card.colour', { value, color }, lang);
  }
  const suit = name.slice(-1);
  return name.slice(0, -1) + (SUIT_SYMBOL[suit] || suit);
}

/** A card in words, for screen readers: "valete de copas", "7 of hearts". */
export function cardLabel(name, lang = current) {
  if (!name) return t('card.back', {}, lang);
  if (isColourName(name)) return cardShort(name, lang);
  const rank = name.slice(0, -1);
  const suit = t(`suit.${name.slice(-1)}`, {}, lang);
  const r = 'JQKA'.includes(rank) ? t(`rank.${rank}`, {}, lang) : rank;
  return t('card.of', { rank: r, suit }, lang);
}

/** A chosen suit or colour letter in words with its symbol: "♥ copas", "azul". */
export function suitText(letter, lang = current) {
  if (!letter) return '';
  if (COLOR_LETTERS.includes(letter)) return t(`color.${letter}`, {}, lang);
  return `${SUIT_SYMBOL[letter] || ''} ${t(`suit.${letter}`, {}, lang)}`.trim();
}

/** "há 5 min" from an ISO time or milliseconds. */
export function timeAgo(when, now = Date.now(), lang = current) {
  const ms = typeof when === 'number' ? when : Date.parse(when);
  if (!Number.isFinite(ms)) return '';
  const min = Math.max(0, Math.floor((now - ms) / 60000));
  if (min < 1) return t('ago.now', {}, lang);
  if (min < 60) return t('ago.min', { n: min }, lang);
  const h = Math.floor(min / 60);
  if (h < 24) return t('ago.hour', { n: h }, lang);
  return t('ago.day', { n: Math.floor(h / 24) }, lang);
}

/** "Ana, Tito e Luna" / "Ana, Tito and Luna". */
export function listNames(names, lang = current) {
  if (names.length <= 1) return names.join('');
  const and = lang === 'en' ? ' and ' : ' e ';
  return names.slice(0, -1).join(', ') + and + names[names.length - 1];
}
