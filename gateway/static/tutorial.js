// The "?" help: an animated step-by-step tutorial, 9 steps per ruleset, one scene per rule.
// A scene is data (the top card, a hand, the card that moves, a badge, a chooser…) drawn with cards.js.
// Opened at a table, it goes on with one scene per house rule that table has on (tutorialhouse.js).

import { api, loadTableCache } from './api.js';
import { backSVG, cardSVG, COLOURS, suitSVG } from './cards.js';
import { rulesetOf } from './catalog.js';
import { h, mount, reducedMotion, trapTab } from './dom.js';
import { getLang, onLangChange, t } from './i18n.js';
import { houseSteps } from './tutorialhouse.js';

const S = (pt, en, scene) => ({ pt, en, scene });

export const STEPS = {
  classic32: [
    S(['Mesmo naipe ou mesmo valor', 'Na sua vez, jogue uma carta do mesmo naipe ou do mesmo valor da carta de cima. Sobre o 9♥ serve qualquer carta de copas ou qualquer 9.'],
      ['Same suit or same rank', 'On your turn, play a card of the same suit or the same rank as the top card. On the 9♥ any heart or any 9 will do.'],
      { top: '9H', hand: ['9S', 'KH', '8C'], ok: ['9S', 'KH'], play: 'KH' }),
    S(['O valete escolhe o naipe', 'O valete entra sobre qualquer carta. Ao jogar um valete, o quadro QUAL NAIPE? pede o naipe, e o próximo tem de jogar esse naipe.'],
      ['The Jack picks the suit', 'A Jack goes on any card. When you play one, the WHICH SUIT? box asks for a suit, and the next player must follow it.'],
      { top: '10D', hand: ['JC', '7S'], ok: ['JC'], play: 'JC', choose: 'S' }),
    S(['Valete sobre valete não vale', 'Não dá para jogar um valete sobre outro valete. Sobre o valete, jogue o naipe que ele pediu.'],
      ['No Jack on a Jack', 'You cannot play a Jack on a Jack. On a Jack, play the suit it asked for.'],
      { top: 'JC', follow: 'S', hand: ['JH', 'AS', '9D'], ok: ['AS'], no: ['JH'], play: 'AS' }),
    S(['Comprar e passar', 'Toque em COMPRAR (ou no monte) para comprar uma carta, mesmo tendo carta que sirva. Se a comprada servir, jogue-a na hora ou toque em PASSAR para guardá-la; se não servir, a vez passa sozinha.'],
      ['Draw and pass', 'Tap DRAW (or the stock) to draw one card, even when you could play. If the drawn card fits, play it at once or tap PASS to keep it; if it does not fit, the turn passes by itself.'],
      { top: 'KD', hand: ['7C', '9S'], draw: '8D', buttons: ['draw', 'pass'] }),
    S(['O 7: compre 2', 'O 7 faz o próximo comprar 2 cartas e perder a vez, a não ser que ele jogue outro 7: aí a compra acumula e passa adiante (4, 6, 8…). O botão COMPRAR mostra quantas são.'],
      ['The 7: draw two', 'A 7 makes the next player draw 2 and lose the turn, unless they play another 7: then the draw stacks up and moves on (4, 6, 8…). The DRAW button shows how many.'],
      { top: '7H', hand: ['7S', 'KC'], ok: ['7S'], play: '7S', badge: '+2 → +4' }),
    S(['O 8: perde a vez', 'O 8 faz o próximo jogador perder a vez. Com dois jogadores na mesa, quem jogou o 8 joga de novo.'],
      ['The 8: skip', 'An 8 makes the next player lose their turn. With two players, whoever played the 8 plays again.'],
      { top: '10C', hand: ['8C', 'QH'], ok: ['8C'], play: '8C', badge: '⊘' }),
    S(['Diga "Mau"', 'Com duas cartas na mão, toque em DIZER MAU antes de jogar a penúltima. Quem joga a penúltima sem dizer "Mau" compra 2 cartas de castigo na hora.'],
      ['Say "Mau"', 'With two cards in hand, tap SAY MAU before playing the second-to-last one. Whoever forgets draws 2 penalty cards at once.'],
      { top: 'QS', hand: ['KS', '9D'], ok: ['KS'], play: 'KS', buttons: ['mau'], badge: 'Mau!' }),
    S(['A última carta: bater', 'Quem joga a última carta bate e vence a rodada. A última carta não tem efeito: um 7 ou um 8 que bate não faz ninguém comprar nem perder a vez.'],
      ['The last card: going out', 'Whoever plays their last card goes out and wins the round. The last card has no effect: a 7 or 8 that goes out makes nobody draw or skip.'],
      { top: '7D', hand: ['7C'], ok: ['7C'], play: '7C', badge: ['★ Bateu!', '★ Out!'] }),
    S(['Os pontos', 'Quem bate leva os pontos das cartas que sobraram na mão dos outros: valete 20, ás 11, rei, dama e 10 valem 10, e 9, 8 e 7 o número. A partida acaba na meta: 100 pontos por jogador.'],
      ['Points', 'Whoever goes out collects the points left in the other hands: Jack 20, Ace 11, King, Queen and 10 are 10, and 9, 8, 7 their number. The match ends at the goal: 100 points per player.'],
      { points: [['JH', 20], ['AS', 11], ['KD', 10], ['9C', 9]] }),
  ],
  classic52: [
    S(['Mesmo naipe ou mesmo valor', 'Na sua vez, jogue uma carta do mesmo naipe ou do mesmo valor da carta de cima. O baralho tem 52 cartas; com 7 ou mais jogadores, dois baralhos.'],
      ['Same suit or same rank', 'On your turn, play a card of the same suit or rank as the top card. The deck has 52 cards; with 7 or more players, two decks.'],
      { top: '4H', hand: ['4C', '10H', '6S'], ok: ['4C', '10H'], play: '4C' }),
    S(['O valete é curinga', 'O valete vale sobre qualquer carta, até sobre outro valete, e escolhe o naipe que o próximo tem de seguir (pode até repetir o atual).'],
      ['The Jack is wild', 'A Jack goes on any card, even on another Jack, and picks the suit the next player must follow (even the current one).'],
      { top: 'JD', hand: ['JS', '5C'], ok: ['JS'], play: 'JS', choose: 'H' }),
    S(['Comprar só sem jogada', 'Só compra quem não tem carta que sirva: uma carta. Se ela servir, pode ser jogada na hora (ou guardada: PASSAR); se não servir, a vez passa sozinha e ela fica com você.'],
      ['Draw only when stuck', 'You draw only when no card fits: one card. If it fits, you may play it at once (or keep it: PASS); if it does not fit, the turn passes by itself and you keep it.'],
      { top: '5C', hand: ['9D', 'KH'], draw: '5S', buttons: ['draw', 'pass'] }),
    S(['O 7: compre 2', 'O 7 faz o próximo comprar 2 e perder a vez, a não ser que ele responda com outro 7: a compra acumula (4, 6…). Com um 7 pendente, só outro 7 serve.'],
      ['The 7: draw two', 'A 7 makes the next player draw 2 and lose the turn, unless they answer with a 7: the draw stacks up (4, 6…). With a 7 pending only a 7 will do.'],
      { top: '7C', hand: ['7D', '9C'], ok: ['7D'], no: ['9C'], play: '7D', badge: '+2 → +4' }),
    S(['O 8: perde a vez', 'O 8 faz o próximo jogador perder a vez.'],
      ['The 8: skip', 'An 8 makes the next player lose their turn.'],
      { top: '2S', hand: ['8S', 'QD'], ok: ['8S'], play: '8S', badge: '⊘' }),
    S(['Diga "Mau"', 'Quando a sua jogada deixar você com uma carta só, diga "Mau" junto com ela: toque em DIZER MAU e jogue.'],
      ['Say "Mau"', 'When your play leaves you with one card, say "Mau" with it: tap SAY MAU and play.'],
      { top: 'QS', hand: ['3S', '9D'], ok: ['3S'], play: '3S', buttons: ['mau'], badge: 'Mau!' }),
    S(['"Mau Mau" ao bater', 'Ao jogar a última carta, diga "Mau Mau". Sem o anúncio, a rodada só termina quando passar a chance de denúncia.'],
      ['"Mau Mau" when going out', 'When you play your last card, say "Mau Mau". Without it the round only ends once the chance to challenge has passed.'],
      { top: '6C', hand: ['6H'], ok: ['6H'], play: '6H', buttons: ['maumau'], badge: 'Mau Mau! ★' }),
    S(['Denuncie quem esquece', 'Se alguém joga sem avisar, qualquer outro jogador pode denunciar até o fim da vez do próximo: quem esqueceu compra 2 cartas de castigo.'],
      ['Challenge a missed call', 'If someone plays without calling, any other player may challenge until the next player\'s turn ends: the offender draws 2 penalty cards.'],
      { top: 'KH', hand: ['5H', 'QC'], opponent: 1, buttons: ['challenge'], badge: '+2' }),
    S(['Pontos contra', 'Quem bate marca 0; os outros somam os pontos da mão: A, K, Q e J valem 10; do 2 ao 10, o número. Quando alguém chega à meta (100), vence quem tiver menos pontos.'],
      ['Points against you', 'Whoever goes out scores 0; the others add up their hands: A, K, Q and J are 10; 2 to 10 their number. When someone reaches the goal (100), the lowest total wins.'],
      { points: [['AS', 10], ['KD', 10], ['7C', 7], ['3H', 3]] }),
  ],
  candeias: [
    S(['Jogar ou comprar', 'Jogue uma carta do mesmo naipe ou valor, ou compre 1 mesmo tendo jogada. Depois de comprar, jogue qualquer carta válida da mão ou passe a vez; sem nenhuma que sirva, a vez passa sozinha. O sentido é anti-horário.'],
      ['Play or draw', 'Play a card of the same suit or rank, or draw 1 even when you could play. After drawing, play any valid card from your hand or pass; with none that fits, the turn passes by itself. Play goes counter-clockwise.'],
      { top: '5H', hand: ['5S', '9H', '2C'], ok: ['5S', '9H'], play: '9H' }),
    S(['Ás pula, dama inverte', 'O ás pula o próximo jogador. A dama inverte o sentido; com dois jogadores, quem jogou a dama joga de novo.'],
      ['Ace skips, Queen reverses', 'An Ace skips the next player. A Queen reverses the direction; with two players, whoever played it plays again.'],
      { top: '4S', hand: ['QS', 'AS'], ok: ['QS', 'AS'], play: 'QS', badge: '⇄' }),
    S(['O 7: compre 2', 'O 7 faz o próximo comprar 2, a não ser que ele responda com outro 7, somando +2 por carta. Quem não responde compra tudo. Passar não escapa do 7.'],
      ['The 7: draw two', 'A 7 makes the next player draw 2 unless they answer with a 7, adding +2 per card. Whoever cannot answer draws it all. Passing does not escape a 7.'],
      { top: '7H', hand: ['7C', '3H'], ok: ['7C'], no: ['3H'], play: '7C', badge: '+2 → +4' }),
    S(['8 e rei castigam o anterior', 'O 8 faz o jogador anterior (no sentido atual) comprar 2 cartas; o rei faz o anterior comprar 1.'],
      ['8 and King punish the previous player', 'An 8 makes the previous player (in the current direction) draw 2; a King makes them draw 1.'],
      { top: '3C', hand: ['8C', 'KC'], ok: ['8C', 'KC'], play: '8C', badge: '⬅ +2' }),
    S(['O valete', 'Na sua vez, o valete vale sobre qualquer carta e escolhe o próximo naipe. Não vale durante a cadeia do 7. Bater com valete dobra os pontos dos outros!'],
      ['The Jack', 'On your turn a Jack goes on any card and picks the next suit. Not during a 7 chain. Going out with a Jack doubles the others\' points!'],
      { top: '6D', hand: ['JH', '2S'], ok: ['JH'], play: 'JH', choose: 'C' }),
    S(['Queima', 'Na sua vez, uma carta normal idêntica à de cima (mesmo valor e naipe) pode ser queimada. Depois, jogue mais uma carta válida ou passe. Logo depois da primeira carta da rodada, qualquer um pode queimar, mesmo fora da vez.'],
      ['Burn', 'On your turn, a normal card identical to the top card (same rank and suit) may be burned on it. Then play one more valid card or pass. Right after the round\'s first card, anyone may burn, even out of turn.'],
      { top: '9S', hand: ['9S', '4S'], ok: ['9S'], play: '9S', buttons: ['burn'], badge: ['Queima!', 'Burn!'] }),
    S(['Carta Dupla ×2', 'Na sua vez, duas cartas normais idênticas podem ir juntas pelo botão ×2, se a jogada for válida. Depois a vez passa. Não vale com A, 7, 8, J, Q ou K.'],
      ['Double card ×2', 'On your turn, two identical normal cards may go together with the ×2 button, when the play is valid. Then the turn passes. Not with A, 7, 8, J, Q or K.'],
      { top: '5D', hand: ['3D', '3D', 'KC'], ok: ['3D'], play: '3D', double: true, buttons: ['double'] }),
    S(['Ação Rápida ⚡', 'Logo depois que alguém joga uma carta normal, quem não jogou e não é o próximo pode descartar uma carta idêntica pelo botão ⚡, fora da vez. Não toma a vez de ninguém.'],
      ['Quick action ⚡', 'Right after someone plays a normal card, a player who neither played it nor is next may discard an identical card with the ⚡ button, out of turn. It takes nobody\'s turn.'],
      { top: '6C', hand: ['6C', '2H'], ok: ['6C'], play: '6C', buttons: ['quick'], badge: '⚡' }),
    S(['Mau-Mau e a Conferência', 'Antes de ficar com uma carta, anuncie Mau-Mau (esquecer custa 2 cartas). A partida tem 5 rodadas; a Conferência da Rodada revela as mãos: A vale 1, 2 a 10 o número, J 11, Q 12, K 13. Vence quem tiver menos pontos.'],
      ['Mau-Mau and the round review', 'Before you are left with one card, call Mau-Mau (forgetting costs 2 cards). A match has 5 rounds; the round review reveals the hands: A is 1, 2 to 10 their number, J 11, Q 12, K 13. The lowest total wins.'],
      { points: [['AS', 1], ['7H', 7], ['JC', 11], ['KD', 13]] }),
  ],
  colors108: [
    S(['Mesma cor ou mesmo número', 'Na sua vez, jogue uma carta da mesma cor ou do mesmo número ou símbolo da carta da mesa. O sentido começa anti-horário.'],
      ['Same colour or same number', 'On your turn, play a card of the same colour or the same number or symbol as the top card. Play starts counter-clockwise.'],
      { top: 'R5', hand: ['B5', 'R8', 'G2'], ok: ['B5', 'R8'], play: 'R8' }),
    S(['Comprar', 'Sem carta que sirva, compre 1: se servir, pode jogá-la; se não, a vez passa. Você também pode comprar tendo jogada, mas aí só a carta comprada pode ser jogada.'],
      ['Drawing', 'With no card that fits, draw 1: if it fits you may play it; if not, the turn passes. You may also draw while holding a play, but then only the drawn card may be played.'],
      { top: 'Y3', hand: ['B7', 'G1'], draw: 'Y9', buttons: ['draw', 'pass'] }),
    S(['Compre 2', 'O próximo compra 2 e perde a vez, a não ser que jogue outro compre 2: a compra acumula e passa adiante (4, 6…).'],
      ['Draw two', 'The next player draws 2 and loses the turn, unless they play another draw two: the draw stacks up and moves on (4, 6…).'],
      { top: 'Y+2', hand: ['B+2', 'Y4'], ok: ['B+2'], no: ['Y4'], play: 'B+2', badge: '+2 → +4' }),
    S(['Pula a vez', 'O próximo jogador perde a vez. Com dois jogadores, você joga de novo.'],
      ['Skip', 'The next player loses their turn. With two players, you play again.'],
      { top: 'G3', hand: ['Gskip', 'R9'], ok: ['Gskip'], play: 'Gskip', badge: '⊘' }),
    S(['Mudança de sentido', 'Inverte o sentido do jogo. Com dois jogadores, funciona como pula a vez.'],
      ['Reverse', 'Reverses the direction of play. With two players it works as a skip.'],
      { top: 'B7', hand: ['Brev', 'Y2'], ok: ['Brev'], play: 'Brev', badge: '⇄' }),
    S(['Curinga', 'O curinga pode ser jogado a qualquer hora, menos quando há compra pendente. Quem joga escolhe a cor no quadro QUAL COR?.'],
      ['Wild', 'A wild may be played at any time, except when a draw is pending. Whoever plays it picks the colour in the WHICH COLOUR? box.'],
      { top: 'R1', hand: ['W', 'G6'], ok: ['W', 'R1'], play: 'W', choose: 'B' }),
    S(['Curinga +4 e MENTIRA!', 'O +4 escolhe a cor e faz o próximo comprar 4. Só vale sem carta da cor da mesa; o próximo pode gritar MENTIRA!: se foi blefe, quem jogou compra 4; se não, quem gritou compra 6.'],
      ['Wild draw four and LIAR!', 'The +4 picks the colour and makes the next player draw 4. It is only allowed without a card of the colour in play; the next player may shout LIAR!: if it was a bluff the player draws 4; if not, the challenger draws 6.'],
      { top: 'G6', hand: ['W+4', 'B3'], ok: ['W+4'], play: 'W+4', choose: 'Y', buttons: ['liar'] }),
    S(['Última!', 'Com duas cartas, toque em ÚLTIMA ao jogar a penúltima. Se esquecer, o próximo da vez pode denunciar, e você compra 2 cartas.'],
      ['Last card!', 'With two cards, tap LAST CARD when you play the second-to-last. If you forget, the next player may challenge and you draw 2.'],
      { top: 'R4', hand: ['R2', 'G9'], ok: ['R2'], play: 'R2', buttons: ['last'], badge: ['Última!', 'Last card!'] }),
    S(['Os pontos', 'Quem bate leva os pontos das mãos dos outros: números pelo valor, compre 2, pula a vez e mudança de sentido 20, curingas 50. Ganha quem chegar primeiro à meta (500). Na partida rápida, ganha quem bater primeiro.'],
      ['Points', 'Whoever goes out collects the others\' points: numbers their value, draw two, skip and reverse 20, wilds 50. The first to reach the goal (500) wins. In a quick game, the first one out wins.'],
      { points: [['R7', 7], ['Gskip', 20], ['B+2', 20], ['W+4', 50]] }),
  ],
};

const BUTTON_LABEL = {
  draw: 'table.draw', pass: 'table.pass', mau: 'table.say_mau', maumau: 'table.say_maumau', last: 'table.say_last',
  burn: 'table.burn', double: 'table.double', quick: 'table.quick', liar: 'table.liar', challenge: 'table.challenge',
};

let open = null;

function card(name, design, extra = {}) {
  return h('span', { class: `tut-card card-face ${extra.class || ''}`, html: name ? cardSVG(name, design) : backSVG(design), ...extra.attrs });
}

function scene(sc, design) {
  if (sc.points) {
    return h('div', { class: 'tut-scene tut-points' },
      sc.points.map(([c, p], i) => h('div', { class: 'tut-point', style: { animationDelay: `${i * 0.25}s` } },
        card(c, design), h('strong', {}, `${p}`))));
  }
  if (sc.row) { // cards in a row (a deck, a deal), one after the other
    return h('div', { class: 'tut-scene tut-row' },
      sc.row.map((c, i) => card(c, design, { class: 'tut-row-card', attrs: { style: { animationDelay: `${i * 0.18}s` } } })));
  }
  if (sc.teams) { // four seats, partners opposite: A at the top and bottom, B at the sides
    const seat = (team, where) => h('div', { class: `tut-seat tut-seat-${where} tut-team-${team.toLowerCase()}` },
      card(null, design), h('span', { class: 'tag' }, `👥 ${team}`));
    return h('div', { class: 'tut-scene tut-teams' },
      seat('A', 'top'), seat('B', 'left'), h('div', { class: 'tut-seat-mid' }, card('R5', design)), seat('B', 'right'), seat('A', 'bottom'));
  }
  const plays = [].concat(sc.play ?? []); // an Ace with company moves two cards, the second one after the first
  const handCards = sc.hand.map((c, i) => {
    const k = plays.indexOf(c);
    const moving = k >= 0 && (sc.double ? true : sc.hand.indexOf(c) === i);
    const cls = [moving ? 'tut-move' : '', moving && k > 0 ? 'tut-move-then' : '',
      (sc.ok || []).includes(c) ? 'tut-ok' : '', (sc.no || []).includes(c) ? 'tut-no' : ''].join(' ');
    return card(c, design, { class: cls });
  });
  for (const c of [].concat(sc.draw ?? [])) handCards.push(card(c, design, { class: 'tut-drawn' }));
  const pile = h('div', { class: 'tut-pile' }, card(sc.top, design),
    sc.follow ? h('span', { class: 'tut-follow', html: suitSVG(sc.follow, 'classic', 22) }) : null);
  const table = h('div', { class: 'tut-table' },
    h('div', { class: 'tut-stock' }, card(null, design)),
    pile,
    sc.opponent ? h('div', { class: 'tut-opponent' }, card(null, design), h('span', {}, '1')) : null,
    sc.badge ? h('div', { class: 'tut-badge' }, Array.isArray(sc.badge) ? sc.badge[getLang() === 'en' ? 1 : 0] : sc.badge) : null);
  const buttons = (sc.buttons || []).map((b) => h('span', { class: `btn btn-small tut-btn tut-btn-${b}` }, t(BUTTON_LABEL[b])));
  let chooser = null;
  if (sc.choose) {
    const colours = 'RGBY'.includes(sc.choose);
    chooser = h('div', { class: 'tut-choose' },
      h('strong', {}, colours ? t('table.which_color') : t('table.which_suit')),
      h('div', { class: 'tut-choose-row' }, (colours ? ['R', 'G', 'B', 'Y'] : ['C', 'D', 'H', 'S']).map((x) => h('span', {
        class: `tut-choice${x === sc.choose ? ' tut-chosen' : ''}`,
        html: colours ? null : suitSVG(x, 'classic', 22),
      }, colours ? h('span', { class: 'swatch', style: { background: COLOURS[x] } }) : null))));
  }
  return h('div', { class: 'tut-scene' }, table,
    buttons.length ? h('div', { class: 'tut-buttons' }, buttons) : null,
    h('div', { class: 'tut-hand' }, handCards), chooser);
}

// The moving card flies to the pile: measure the distance once it is laid out.
function aim(root) {
  const pile = root.querySelector('.tut-pile .tut-card');
  const stock = root.querySelector('.tut-stock .tut-card');
  for (const el of root.querySelectorAll('.tut-move')) {
    if (!pile) break;
    const a = el.getBoundingClientRect();
    const b = pile.getBoundingClientRect();
    el.style.setProperty('--dx', `${b.left - a.left}px`);
    el.style.setProperty('--dy', `${b.top - a.top}px`);
  }
  for (const el of root.querySelectorAll('.tut-drawn')) {
    if (!stock) break;
    const a = el.getBoundingClientRect();
    const b = stock.getBoundingClientRect();
    el.style.setProperty('--dx', `${b.left - a.left}px`);
    el.style.setProperty('--dy', `${b.top - a.top}px`);
  }
  root.classList.toggle('tut-static', !!reducedMotion());
  root.classList.add('tut-run');
}

let catalogAsked = null; // GET /api/rulesets, asked once: the defaults the table's options differ from

/** The table this page shows (/m/<id>), or null. */
function tableHere() {
  const m = /^\/m\/([A-Za-z0-9-]{1,64})\/?$/.exec(window.location.pathname);
  return m ? m[1] : null;
}

/**
 * At a table of `ruleset`: {ruleset, steps} with a scene for each house rule it has on (its
 * options as the table screen keeps them since its first picture); elsewhere null.
 */
async function houseOfThisTable(ruleset) {
  const id = tableHere();
  const info = id ? loadTableCache(id)?.table_info : null;
  if (!info || info.ruleset !== ruleset) return null;
  catalogAsked = catalogAsked || api.rulesets().catch(() => { catalogAsked = null; return null; });
  const rs = rulesetOf(await catalogAsked, ruleset);
  const steps = houseSteps(rs, info.options);
  return steps.length ? { ruleset, steps } : null;
}

/** Open the tutorial for a ruleset (the table's, or the one picked on the home screen); `labelOf` names a ruleset. */
export function openTutorial(ruleset = 'classic32', design = 'classic', labelOf = (id) => id) {
  closeTutorial();
  const previous = document.activeElement;
  let rs = STEPS[ruleset] ? ruleset : 'classic32';
  let step = 0;
  let house = null; // this table's house rules: more steps after the ruleset's own
  const stepsOf = (id) => (house && house.ruleset === id ? [...STEPS[id], ...house.steps] : STEPS[id]);
  const body = h('div', { class: 'tut-body' });
  const dialog = h('div', {
    class: 'tutorial', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'tut-title', testid: 'tutorial', tabindex: '-1',
  }, body);
  const backdrop = h('div', { class: 'tut-backdrop', onclick: (e) => { if (e.target === backdrop) closeTutorial(); } }, dialog);

  function render() {
    const steps = stepsOf(rs);
    step = Math.min(step, steps.length - 1);
    const s = steps[step];
    const [title, text] = getLang() === 'en' ? s.en : s.pt;
    const sceneEl = scene(s.scene, design);
    const last = step === steps.length - 1;
    const select = h('select', { 'aria-label': t('tut.which'), testid: 'tutorial-ruleset', onchange: (e) => { rs = e.target.value; step = 0; render(); } },
      Object.keys(STEPS).map((id) => h('option', { value: id, selected: id === rs }, labelOf(id))));
    mount(body,
      h('div', { class: 'tut-head' },
        h('h2', { id: 'tut-title' }, `${t('tut.title')} · `, h('span', { testid: 'tutorial-title' }, title)),
        h('button', { class: 'btn btn-small btn-ghost', type: 'button', testid: 'tutorial-close', 'aria-label': t('close'), onclick: closeTutorial }, '✕')),
      h('div', { class: 'tut-meta' }, select, h('span', { class: 'muted', testid: 'tutorial-step', 'aria-live': 'polite' }, t('tut.step', { n: step + 1, total: steps.length }))),
      h('div', { class: 'tut-dots', 'aria-hidden': 'true' },
        steps.map((x, i) => h('span', { class: `tut-dot${i === step ? ' on' : ''}${x.id ? ' tut-dot-house' : ''}` }))),
      s.id ? h('p', { class: 'tut-house', testid: 'tutorial-house', 'data-option': s.id }, t('tut.house')) : null,
      sceneEl,
      h('p', { class: 'tut-text', testid: 'tutorial-text' }, text),
      h('div', { class: 'tut-nav' },
        h('button', { class: 'btn', type: 'button', testid: 'tutorial-prev', disabled: step === 0, onclick: () => { step -= 1; render(); } }, t('tut.prev')),
        h('button', { class: 'btn btn-primary', type: 'button', testid: 'tutorial-next',
          onclick: () => { if (last) closeTutorial(); else { step += 1; render(); } } }, last ? t('tut.done') : t('tut.next'))));
    requestAnimationFrame(() => aim(sceneEl));
    body.querySelector('[data-testid="tutorial-next"]').focus({ preventScroll: true });
  }

  const onKey = (e) => {
    if (e.key === 'Escape') { e.preventDefault(); closeTutorial(); }
    else if (e.key === 'ArrowRight' && step < stepsOf(rs).length - 1 && e.target.tagName !== 'SELECT') { step += 1; render(); }
    else if (e.key === 'ArrowLeft' && step > 0 && e.target.tagName !== 'SELECT') { step -= 1; render(); }
    else trapTab(e, dialog);
  };
  document.addEventListener('keydown', onKey);
  const offLang = onLangChange(render);
  document.body.append(backdrop);
  document.body.classList.add('modal-open');
  const me = { backdrop, onKey, offLang, previous };
  open = me;
  render();
  houseOfThisTable(rs).then((found) => {
    if (!found || open !== me) return;
    house = found;
    render();
  }, () => { /* the usual steps only */ });
}

export function closeTutorial() {
  if (!open) return;
  const { backdrop, onKey, offLang, previous } = open;
  open = null;
  document.removeEventListener('keydown', onKey);
  offLang();
  backdrop.remove();
  document.body.classList.remove('modal-open');
  if (previous && previous.focus) previous.focus({ preventScroll: true });
}
