// The "?" tutorial at a table: after the ruleset's usual steps, one more scene for each house
// rule (and each option that changes play) this table has on (issue 14). Each text says what
// that option's row of ../shared/RULES.md says, in pt-BR and English; each scene is data drawn
// like the usual steps (tutorial.js). What a ruleset's scenes say differently comes from its learning
// data (`tutorial.house` in aprenda/data/<ruleset>.json), never from its name. Pure, so it can be
// unit-tested in node.

import { optionDefault } from './catalog.js';

const S = (pt, en, scene) => ({ pt, en, scene });

// Options that change no rule of play (the goal and the turn time are in the table's head).
const NOT_PLAY = new Set(['target_points', 'turn_seconds']);

const cards = (n) => (n === 1 ? '1 carta' : `${n} cartas`);
const cardsEn = (n) => (n === 1 ? '1 card' : `${n} cards`);

// How a missed "Mau-Mau" is punished where going out needs it (RULES.md, "Announcing the last card"):
// at once, or when another player challenges it (the learning data's `missed_call: "challenge"`).
function missedCall(c) {
  const n = c.value('mau_penalty') ?? 2;
  return c.house.missed_call === 'challenge'
    ? [` Quem esquece pode ser denunciado por qualquer outro jogador e compra ${cards(n)} de castigo.`,
      ` Whoever forgets may be challenged by any other player and draws ${cardsEn(n)} as a penalty.`]
    : [` Quem esquece compra ${cards(n)} de castigo na hora, e a rodada continua.`,
      ` Whoever forgets draws ${cardsEn(n)} as a penalty at once, and the round goes on.`];
}

const DEAL = ['9H', 'KC', '7S', 'AD', '10C', 'QH', '8D'];

/**
 * One scene per option value that is not the ruleset's default: (value, context) → step, or null
 * when that value needs no scene. `context.value(name)` is the table's value of another option.
 */
export const SCENES = {
  scoring(v) {
    if (v === 'against') {
      return S(['Pontos contra', 'Nesta mesa, quem bate anota 0, e cada um dos outros anota os pontos da própria mão: valete 20, ás 11, rei, dama e 10 valem 10, e 9, 8 e 7 o número. Quando alguém chega à meta, vence quem tiver menos pontos.'],
        ['Points against', 'At this table whoever goes out adds 0, and everyone else adds the points of their own hand: Jack 20, Ace 11, King, Queen and 10 are 10, and 9, 8, 7 their number. When someone reaches the goal, the lowest total wins.'],
        { points: [['JH', '+20'], ['AS', '+11'], ['KD', '+10'], ['9C', '+9']] });
    }
    if (v === 'none') {
      return S(['Sem pontos', 'Nesta mesa ninguém marca pontos: cada rodada é uma partida, quem bate vence, e a rodada seguinte começa uma partida nova.'],
        ['No points', 'At this table nobody scores: each round is a match of its own, whoever goes out wins it, and the next round starts a fresh match.'],
        { top: '10C', hand: ['10H'], ok: ['10H'], play: '10H', badge: ['★ Venceu!', '★ Won!'] });
    }
    return null;
  },
  quick() {
    return S(['Partida rápida', 'Nesta mesa, quem bater primeiro ganha a partida, sem contar pontos; a rodada seguinte começa uma partida nova.'],
      ['Quick game', 'At this table the first one out wins the match, no points counted; a further round starts a fresh match.'],
      { top: 'G4', hand: ['G7'], ok: ['G7'], play: 'G7', badge: ['★ Venceu!', '★ Won!'] });
  },
  teams() {
    return S(['Jogo em duplas', 'Nesta mesa, 4 jogadores jogam em duplas, com os parceiros frente a frente. Quando um dos dois bate, a dupla vence a rodada e leva os pontos das mãos da outra dupla; a partida é da dupla que chegar primeiro à meta.'],
      ['Teams', 'At this table 4 players play in pairs, partners sitting opposite. When one of them goes out, the team wins the round and collects the points of the other team\'s hands; the match goes to the first team to reach the goal.'],
      { teams: true });
  },
  deck(v) {
    if (v !== 32) return null;
    return S(['Baralho de 32 cartas', 'Nesta mesa, o baralho tem só 32 cartas: do 7 ao ás de cada naipe (sem 2, 3, 4, 5 e 6).'],
      ['A 32-card deck', 'At this table the deck has only 32 cards: 7 to Ace of each suit (no 2, 3, 4, 5 or 6).'],
      { row: ['7H', '8H', '9H', '10H', 'JH', 'QH', 'KH', 'AH'] });
  },
  ace(v) {
    if (v === 'draw_one') {
      return S(['O ás: todos compram 1', 'Nesta mesa, o ás faz todos os outros jogadores comprarem 1 carta.'],
        ['The Ace: everyone draws 1', 'At this table an Ace makes every other player draw 1 card.'],
        { top: 'QC', hand: ['AC', '9D'], ok: ['AC'], play: 'AC', opponent: 1, badge: ['Todos +1', 'Everyone +1'] });
    }
    if (v === 'skip_all') {
      return S(['O ás: todos perdem a vez', 'Nesta mesa, o ás faz todos os outros jogadores perderem a vez: quem jogou o ás joga de novo.'],
        ['The Ace: everyone is skipped', 'At this table an Ace makes every other player lose their turn: whoever played it plays again.'],
        { top: 'QC', hand: ['AC', '9D'], ok: ['AC'], play: 'AC', badge: ['Todos ⊘ · ↺', 'All ⊘ · ↺'] });
    }
    return null;
  },
  seven_chain_limit(v, c) {
    if (v !== 1 || sevensPlain(c) || c.value('seven_stacking') === false) return null;
    return S(['Cadeia do 7 curta', 'Nesta mesa, só mais um jogador pode responder a um 7 com outro 7: a compra para em 4, e quem recebe o segundo 7 compra as 4.'],
      ['Short 7 chain', 'At this table only one more player may answer a 7 with a 7: the draw stops at 4, and whoever gets the second 7 draws the 4.'],
      { top: '7C', hand: ['7D', '9C'], ok: ['7D'], no: ['9C'], play: '7D', badge: ['+2 → +4 (máx.)', '+2 → +4 (max)'] });
  },
  seven_stacking(v, c) {
    if (v !== false || sevensPlain(c)) return null;
    return S(['O 7 não acumula', 'Nesta mesa, não dá para responder um 7 com outro 7: quem recebe o 7 sempre compra 2 cartas e perde a vez.'],
      ['The 7 does not stack', 'At this table a 7 cannot be answered with a 7: whoever gets a 7 always draws 2 cards and loses the turn.'],
      { top: '7H', hand: ['7S', 'KH'], no: ['7S', 'KH'], draw: ['9D', 'QC'], buttons: ['draw'], badge: '+2' });
  },
  eight_bounce(v) {
    if (v !== true) return null;
    return S(['O 8 devolvido', 'Nesta mesa, quem é pulado por um 8 ainda fica com a vez, só para decidir: jogar outro 8 e passar o pulo adiante, ou tocar em PASSAR e aceitar perder a vez.'],
      ['8 bounce', 'At this table a player skipped by an 8 still gets the turn, only to decide: play another 8 to pass the skip on, or tap PASS to accept losing the turn.'],
      { top: '8C', hand: ['8H', 'KC'], ok: ['8H'], no: ['KC'], play: '8H', buttons: ['pass'], badge: '⊘ ↪' });
  },
  nine_draws(v, c) {
    if (v !== 3) return null;
    // where the 9 had no effect of its own, the learning data may say so ([pt-BR, en])
    const special = (c.house.nine_draws || ['', '']).map((words) => (words ? ` ${words}` : ''));
    return S(['O 9: compre 3', `Nesta mesa, o 9 faz o próximo jogador comprar 3 cartas e perder a vez. Não dá para responder ao 9: ele toca em COMPRAR, leva as 3 e a vez passa.${special[0]}`],
      ['The 9: draw three', `At this table a 9 makes the next player draw 3 cards and lose the turn. A 9 cannot be answered: they tap DRAW, take the 3 and the turn moves on.${special[1]}`],
      { top: 'QC', hand: ['9C', 'KH'], ok: ['9C'], play: '9C', badge: '+3' });
  },
  jack_on_jack(v) {
    if (v === true) {
      return S(['Valete sobre valete vale', 'Nesta mesa, um valete pode ser jogado sobre outro valete, e o novo valete escolhe o naipe.'],
        ['Jack on Jack allowed', 'At this table a Jack may be played on a Jack, and the new Jack picks the suit.'],
        { top: 'JC', follow: 'S', hand: ['JH', '9D'], ok: ['JH'], play: 'JH', choose: 'D' });
    }
    return S(['Valete sobre valete não vale', 'Nesta mesa, não dá para jogar um valete sobre outro valete. Sobre o valete, jogue o naipe que ele pediu.'],
      ['No Jack on a Jack', 'At this table you cannot play a Jack on a Jack. On a Jack, play the suit it asked for.'],
      { top: 'JD', follow: 'H', hand: ['JS', 'KH'], ok: ['KH'], no: ['JS'], play: 'KH' });
  },
  mau_mau_call(v, c) {
    if (v === 'always') {
      const [pt, en] = missedCall(c);
      return S(['Bater com "Mau-Mau"', `Nesta mesa, quem joga a última carta tem de dizer "Mau-Mau": toque em DIZER MAU-MAU e jogue.${pt}`],
        ['Going out with "Mau-Mau"', `At this table whoever plays their last card must say "Mau-Mau": tap SAY MAU-MAU and play.${en}`],
        { top: '10C', hand: ['KC'], ok: ['KC'], play: 'KC', buttons: ['maumau'], badge: 'Mau-Mau! ★' });
    }
    if (v === 'jack_only') {
      const [pt, en] = missedCall(c);
      return S(['"Mau-Mau" só com valete', `Nesta mesa, só quem bate com um valete tem de dizer "Mau-Mau" (toque em DIZER MAU-MAU); batendo com outra carta, não precisa.${pt}`],
        ['"Mau-Mau" only with a Jack', `At this table only whoever goes out with a Jack must say "Mau-Mau" (tap SAY MAU-MAU); going out with any other card needs no call.${en}`],
        { top: '10H', hand: ['JH'], ok: ['JH'], play: 'JH', buttons: ['maumau'], badge: 'Mau-Mau! ★' });
    }
    return S(['Bater sem anunciar', 'Nesta mesa, quem joga a última carta bate sem dizer "Mau Mau", e a rodada termina na hora. O "Mau" com a penúltima carta continua valendo.'],
      ['Going out without a call', 'At this table whoever plays their last card goes out without saying "Mau Mau", and the round ends at once. The "Mau" with the second-to-last card still counts.'],
      { top: '10C', hand: ['10H'], ok: ['10H'], play: '10H', badge: ['★ Bateu!', '★ Out!'] });
  },
  mau_penalty(v) {
    if (v !== 1) return null;
    return S(['Castigo de 1 carta', 'Nesta mesa, quem esquece de anunciar ("Mau", ou "Mau-Mau" onde a mesa pede) compra só 1 carta de castigo, em vez de 2.'],
      ['A 1-card penalty', 'At this table a missed call ("Mau", or "Mau-Mau" where the table asks for it) costs only 1 penalty card instead of 2.'],
      { top: 'QS', hand: ['KS', '9D'], ok: ['KS'], play: 'KS', draw: ['8H'], badge: ['Esqueceu: +1', 'Forgot: +1'] });
  },
  hand_size(v, c) {
    if (![5, 6, 7].includes(v)) return null;
    const was = c.default('hand_size');
    return S([`${v} cartas na mão`, `Nesta mesa, cada jogador recebe ${v} cartas no começo da rodada (em vez de ${was}).`],
      [`${v} cards each`, `At this table every player is dealt ${v} cards at the start of a round (instead of ${was}).`],
      { row: DEAL.slice(0, v) });
  },
  ace_with_company(v) {
    if (v !== true) return null;
    return S(['O ás vai acompanhado', 'Nesta mesa, o ás só pode ser jogado junto com mais uma carta da mão, na mesma jogada: toque no ás e depois na companheira. O ás tem de servir na mesa, e a companheira sobre o ás (mesmo naipe, outro ás ou um valete), com o efeito dela. Ás sozinho não vale.'],
      ['The Ace goes with company', 'At this table an Ace may only be played together with a second card from your hand, in one play: tap the Ace, then its companion. The Ace must fit the pile, and the companion must fit on the Ace (same suit, another Ace or a Jack), with its own effect. An Ace alone is refused.'],
      { top: '10S', hand: ['AS', 'KS', '9D'], ok: ['AS', 'KS'], no: ['9D'], play: ['AS', 'KS'], badge: 'A + K' });
  },
  seven_draws(v) {
    if (v !== 0) return null;
    return S(['O 7 é uma carta comum', 'Nesta mesa (a variante para crianças), o 7 não faz ninguém comprar nem perder a vez, e não há nada a responder. Ele continua servindo pelo naipe ou pelo valor.'],
      ['A plain 7', 'At this table (the variant for young children) a 7 makes nobody draw or lose the turn, and there is nothing to answer. It still fits by suit or rank.'],
      { top: 'KD', hand: ['7D', 'QC'], ok: ['7D'], play: '7D', badge: ['sem compra', 'no draw'] });
  },
};

function sevensPlain(c) {
  return c.value('seven_draws') === 0;
}

/**
 * The extra steps of the tutorial at a table of ruleset `rs` (its GET /api/rulesets description)
 * with `options` (table_info.options): one per option whose value is not the ruleset's default
 * and changes play, in the order the lobby lists the options. Each is {id, pt, en, scene}, `id`
 * being "option:value". `house` is what the ruleset's learning data says of its house scenes.
 */
export function houseSteps(rs, options, house = {}) {
  if (!rs) return [];
  const set = options || {};
  const known = new Map(rs.options.map((o) => [o.name, o]));
  const def = (name) => (known.has(name) ? optionDefault(rs, name) : null);
  const value = (name) => {
    if (!known.has(name)) return null;
    return Object.hasOwn(set, name) && set[name] !== null && set[name] !== undefined ? set[name] : def(name);
  };
  const context = { house: house || {}, value, default: def };
  const steps = [];
  for (const o of rs.options) {
    const v = value(o.name);
    if (NOT_PLAY.has(o.name) || !SCENES[o.name] || v === def(o.name) || v === null) continue;
    const step = SCENES[o.name](v, context);
    if (step) steps.push({ id: `${o.name}:${v}`, ...step });
  }
  return steps;
}
