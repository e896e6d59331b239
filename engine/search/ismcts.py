"""Single-observer information set MCTS (SO-ISMCTS, fernandes2016 chapter 5, Algorithm 3) for every game.

Each iteration samples a determinization of the searching seat's observation
(:func:`engine.determinize.determinize`), descends one tree whose nodes are the observer's information
sets, restricted to the moves legal in that determinization, choosing children by UCB1 with availability
counts (the subset-armed bandit form: the parent's visit count is replaced by how often the child was
available), expands one node, simulates to the end and backpropagates each seat's reward to the nodes of
the moves that seat made. The decision is the root child with the most visits.

Options (all SPEC parameters, see :attr:`ISMCTSAgent.params`): rewards (pwl/wl/sd/score/relative), simulation
policies (random, NAST n-grams with Gibbs/epsilon-greedy/roulette/UCB1, game heuristics and inlined rollouts
from the game's :class:`~engine.knowledge.SearchKnowledge`), heuristic move pruning and beam search
(kassak2023 4.4), an exact endgame solver, transpositions with a fixed set of determinizations (ISMCTS-T,
manzke2025 4.3: information sets that abstract to the same key share one node, i.e. one children dict, while
each parent's edge into it keeps its own counts), biased determinization, move handlers, tree reuse and root
parallelization.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from engine.agent import Agent, Budget, Progress
from engine.game import Game, GameState, Option, VariantError
from engine.observation import Observation
from engine.search import endgame, knowledge, strategies
from engine.search.common import CLOCKS, NAST, NAST_POLICIES, REWARD_RANGE, Clock, exploration, search_options, to_rate

__all__ = ["SIM_EPSILON", "ISMCTSAgent", "Node", "SearchConfig", "SearchResult", "cards_left", "check_simulation",
           "pick_move", "prune_depth", "run_ismcts", "run_shares_in_turn", "split_iterations"]

ENDGAME_MAX_CARDS = 18
"""The endgame solver is tried only when at most this many cards are left to play (trick-taking games)."""

ENDGAME_TIME_SHARE = 0.5
"""With a time budget, the share of it the endgame solver may use before it gives up and the search runs."""


class Node:
    """A tree node: the move (or move-handler key) that leads here and who made it, with statistics."""

    __slots__ = ("key", "seat", "parent", "children", "visits", "total", "avail", "closed")

    def __init__(self, key: Hashable, seat: int, parent: Node | None) -> None:
        self.key = key
        self.seat = seat
        self.parent = parent
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.closed = False  # beam search: no new children (the level below was pruned)


class SearchResult:
    """Root statistics of one search: visits and total reward per root key, plus the iteration count.

    ``depth_firsts[d - 1]`` is the number of iterations after which the search had first descended ``d`` moves
    below the root (manzke2025 figure 6.2), so ``len(depth_firsts)`` is the depth of its deepest path (figure
    6.1); empty for merged root-parallel searches, whose shares each have their own tree."""

    def __init__(self, visits: dict[Hashable, int], totals: dict[Hashable, float], iterations: int,
                 moves_by_key: dict[Hashable, int], depth_firsts: list[int] | None = None) -> None:
        self.visits = visits
        self.totals = totals
        self.iterations = iterations
        self.moves_by_key = moves_by_key
        self.depth_firsts = depth_firsts if depth_firsts is not None else []

    @property
    def depth(self) -> int:
        """Moves from the root to the deepest node the search descended to (0 for a merged search)."""
        return len(self.depth_firsts)

    def best_key(self, order: list[Hashable]) -> Hashable:
        """Most visited key; ties go to the higher total reward, then to the first in ``order``."""
        best = None
        best_v: tuple[int, float] = (-1, -math.inf)
        for k in order:
            v = (self.visits.get(k, 0), self.totals.get(k, 0.0))
            if v > best_v:
                best, best_v = k, v
        return best


class SearchConfig:
    """Resolved parameters of one search (plain attributes for the hot loop)."""

    def __init__(self, game: Game, cfg: dict[str, Any]) -> None:
        self.game_name = game.name
        self.iterations = int(cfg["iterations"])
        self.seconds = float(cfg["seconds"])
        self.clock = str(cfg.get("clock", "wall"))
        self.c = exploration(float(cfg["c"]), game)
        self.reward = str(cfg["reward"])
        self.sim = str(cfg["sim"]) if cfg["sim"] != "default" else knowledge.default_simulation(game.name)
        self.sim_epsilon = float(cfg.get("sim_epsilon", 0.0))
        self.eval_plies = int(cfg.get("eval_plies", 0))
        self.eval_depth = int(cfg.get("eval_depth", 0))
        self.eval_nodes = int(cfg.get("eval_nodes", 400))
        self.nast_n = int(cfg["nast_n"])
        self.nast_policy = str(cfg["nast_policy"])
        self.tau = float(cfg["tau"])
        self.epsilon = float(cfg["epsilon"])
        self.nast_c = float(cfg["nast_c"])
        self.endgame = int(cfg["endgame"])
        self.transpositions = bool(cfg["transpositions"])
        self.shared_stats = str(cfg["tt_stats"]) == "node"
        self.dets = int(cfg["dets"])
        self.bias = str(cfg["bias"])
        self.handler = str(cfg["handler"])
        self.workers = int(cfg["workers"])
        self.reuse = bool(cfg["reuse"])
        self.opponents = str(cfg["opponents"])
        self.resolve = str(cfg["resolve"])
        self.prune = str(cfg["prune"])
        self.rule = str(cfg.get("rule", ""))
        self.beam_width = int(cfg["beam_width"])
        self.beam_limit = int(cfg["beam_limit"])
        self.until_depth = int(cfg.get("until_depth", 0))


_Config = SearchConfig
"""The former name of :class:`SearchConfig`."""


def _uniform_choice(seq: list[Any], rng: random.Random) -> Any:
    return seq[int(rng.random() * len(seq))] if len(seq) > 1 else seq[0]


def run_ismcts(obs: Observation, rng: random.Random, conf: SearchConfig, budget: Budget | None,
               root: Node | None = None, deal: Callable[[], GameState] | None = None) -> tuple[SearchResult, Node]:
    """One SO-ISMCTS search from ``obs``; returns the root statistics and the root (for reuse). ``deal``
    replaces the determinization (the cheating agent passes a copy of the true state: one perfect-information
    UCT tree).

    The options' strategies (determinization, the tree's moves, branching, expansion, simulation and reward) are
    chosen once by :mod:`engine.search.strategies`; the loop below is the algorithm itself: select by UCB1 with
    availability counts, expand one node, play out, back up each seat's reward."""
    clock = Clock(conf.iterations, conf.seconds, budget, conf.clock)
    c = conf.c
    reward_kind = conf.reward
    rand = rng.random
    if root is None:
        root = Node(None, -1, None)
    if deal is None:
        deal = strategies.determinizer(obs, rng, conf)
    moves_at = strategies.tree_moves(obs, rng, conf)
    group, concrete = strategies.branching(rng, conf)
    expand = strategies.expansion(obs, conf, Node, root, _generic_infoset_key)
    nast = (NAST(conf.nast_n, conf.nast_policy, conf.tau, conf.epsilon, conf.nast_c, REWARD_RANGE[reward_kind])
            if conf.sim == "nast" else None)
    play_out = strategies.playout(rng, conf, knowledge.playouts(conf.game_name), nast, obs.state.game, obs.seat)
    track = nast is not None
    root_moves: dict[Hashable, int] = {}

    def best_so_far() -> tuple[int | None, float | None]:
        if not root.children:
            return None, None
        ch = max(root.children.values(), key=lambda n: n.visits)
        move = root_moves.get(ch.key, ch.key if group is None else None)
        return move, to_rate(reward_kind, ch.total / ch.visits) if ch.visits else None  # type: ignore[return-value]

    beam_width = conf.beam_width
    beam_depth = 1
    next_beam = conf.beam_limit if beam_width > 0 else -1
    inf = math.inf
    limit = clock.iterations
    checks = clock.timed or clock.cancel is not None or clock.on_progress is not None
    reports = clock.on_progress is not None
    # UCB1 = mean + c sqrt(ln a / v) = mean + bonus[a] * inv_sqrt[v], from tables grown when a count
    # outgrows them (a reused tree brings its counts along; the try costs nothing until it fails).
    bonus: list[float] = [0.0]
    inv_sqrt: list[float] = [inf]
    grow_ucb_tables(bonus, inv_sqrt, c, min(limit, 4096) + 2)
    firsts: list[int] = []  # iterations after which each depth was first reached
    stop_depth = conf.until_depth
    reached_end = False
    i = 0
    while i < limit:
        if checks and not i & 7 and i and clock.done(i):  # time, cancel: every 8 iterations (< 10 ms)
            break
        d = deal()
        node = root
        path: list[Node] = []
        seq: list[tuple[int, int]] | None = [] if track else None
        depth = 0
        while True:
            seat = d.current_player  # -1 once the hand is over
            if seat < 0:
                break
            moves = moves_at(d)
            children = node.children
            groups = None if group is None else group(d, moves)
            keys: list[Hashable] = moves if groups is None else list(groups)  # type: ignore[assignment]
            # One pass: count availability for every existing child, collect the untried keys and,
            # while none is untried, keep the UCB1 maximum (availability form, fernandes2016 Algorithm 3).
            untried: list[Hashable] | None = None
            best: Node | None = None
            best_k: Hashable = None
            best_u = -inf
            for k in keys:
                ch = children.get(k)
                if ch is None:
                    if untried is None:
                        untried = [k]
                    else:
                        untried.append(k)
                    continue
                a = ch.avail + 1
                ch.avail = a
                if untried is None:
                    v = ch.visits
                    # v == 0: a transposition into a node not yet credited (e.g. the root): try it first.
                    try:
                        u = ch.total / v + bonus[a] * inv_sqrt[v] if v else inf
                    except IndexError:
                        grow_ucb_tables(bonus, inv_sqrt, c, 2 * max(a, v))
                        u = ch.total / v + bonus[a] * inv_sqrt[v]
                    if u > best_u:
                        best_u, best, best_k = u, ch, k
            if untried is not None and node.closed:  # beam search: choose among the kept children only
                untried = None
                best, best_k = _beam_choice(children, keys, c)
                if best is None:
                    break  # every move available here was pruned: simulate from this node
            if untried is not None:  # expansion
                k = untried[int(rand() * len(untried))] if len(untried) > 1 else untried[0]
                move = k if groups is None else concrete(d, groups[k])
                if depth == 0:
                    root_moves.setdefault(k, move)  # type: ignore[arg-type]
                d.do(move)  # type: ignore[arg-type]
                if seq is not None:
                    seq.append((seat, move))  # type: ignore[arg-type]
                node, known = expand(node, k, seat, d)
                path.append(node)
                if known:
                    depth += 1
                    continue
                break
            assert best is not None
            move = best_k if groups is None else concrete(d, groups[best_k])
            if depth == 0:
                root_moves.setdefault(best_k, move)  # type: ignore[arg-type]
            d.do(move)  # type: ignore[arg-type]
            if seq is not None:
                seq.append((seat, move))  # type: ignore[arg-type]
            node = best
            path.append(node)
            depth += 1
        if stop_depth:
            reached_end = d.current_player < 0
        rewards = play_out(d, seq)
        for n in path:
            n.visits += 1
            n.total += rewards[n.seat]
        if nast is not None and seq:
            nast.update(seq, rewards)
        i += 1
        if len(path) > len(firsts):
            firsts.extend([i] * (len(path) - len(firsts)))
            if stop_depth and len(firsts) >= stop_depth:
                break
        if reached_end:
            break
        if i == next_beam:
            prune_depth(root, beam_depth, beam_width)
            beam_depth += 1
            next_beam += conf.beam_limit
        if reports and not i & 15:
            clock.maybe_report(i, best_so_far)
    visits = {k: ch.visits for k, ch in root.children.items()}
    totals = {k: ch.total for k, ch in root.children.items()}
    move, rate = best_so_far()
    clock.final_report(i, move, rate)
    return SearchResult(visits, totals, i, root_moves, firsts), root


def _beam_choice(children: dict[Hashable, Node], keys: list[Hashable], c: float) -> tuple[Node | None, Hashable]:
    """UCB1 among the kept children of a node closed by beam search (None when every available move was pruned)."""
    best: Node | None = None
    best_k: Hashable = None
    best_u = -math.inf
    log = math.log
    sqrt = math.sqrt
    for k in keys:
        ch = children.get(k)
        if ch is not None:
            v = ch.visits
            u = ch.total / v + c * sqrt(log(ch.avail) / v) if v else math.inf
            if u > best_u:
                best_u, best, best_k = u, ch, k
    return best, best_k


def split_iterations(iterations: int, shares: int) -> list[int]:
    """``iterations`` split exactly over ``shares`` (0 = time budget only: every share gets 0)."""
    if iterations <= 0:
        return [0] * shares
    base, extra = divmod(iterations, shares)
    return [base + (1 if i < extra else 0) for i in range(shares)]


def merge_results(parts: list[SearchResult]) -> SearchResult:
    """Root statistics of several independent searches added up, in the given order (deterministic)."""
    visits: dict[Hashable, int] = {}
    totals: dict[Hashable, float] = {}
    moves_by_key: dict[Hashable, int] = {}
    done = 0
    for part in parts:
        done += part.iterations
        for key, v in part.visits.items():
            visits[key] = visits.get(key, 0) + v
            totals[key] = totals.get(key, 0.0) + part.totals[key]
        for key, m in part.moves_by_key.items():
            moves_by_key.setdefault(key, m)
    return SearchResult(visits, totals, done, moves_by_key)


def run_shares_in_turn(obs: Observation, rng: random.Random, conf: SearchConfig,
                       budget: Budget | None) -> SearchResult:
    """Root parallelization without processes: the ``conf.workers`` shares (their seeds drawn from ``rng``, the
    iteration budget split by :func:`split_iterations`) searched one after another and merged in share order,
    the result of the same shares run in parallel. A time budget is one search's (the shares after the first
    are skipped: running them in turn could not be faster)."""
    n = max(1, conf.workers)
    iterations = budget.iterations if budget is not None and budget.iterations is not None else conf.iterations
    seconds = budget.seconds if budget is not None and budget.seconds is not None else conf.seconds
    if iterations <= 0 and seconds <= 0:
        iterations = 1000  # as the single search's Clock does
    seeds = [rng.getrandbits(63) for _ in range(n)]
    budgets = split_iterations(iterations, n) if seconds <= 0 else [iterations]
    on_progress = budget.on_progress if budget is not None else None
    cancel = budget.cancel if budget is not None else None
    parts: list[SearchResult] = []
    for seed, share in zip(seeds, budgets, strict=False):
        if parts and (share <= 0 or (cancel is not None and cancel.is_set())):
            continue
        before = sum(p.iterations for p in parts)
        hook = None
        if on_progress is not None:
            def hook(p: Progress, before: int = before) -> None:
                on_progress(dataclasses.replace(p, iterations=before + p.iterations))
        part, _root = run_ismcts(obs, random.Random(seed), conf,
                                 Budget(iterations=share, seconds=seconds, cancel=cancel, on_progress=hook))
        parts.append(part)
    return merge_results(parts)


def grow_ucb_tables(bonus: list[float], inv_sqrt: list[float], c: float, size: int) -> None:
    """Extend the UCB1 tables in place to ``size`` entries: ``bonus[a] = c sqrt(ln a)``, ``inv_sqrt[v] = 1/sqrt(v)``."""
    counts = np.arange(len(bonus), size, dtype=np.float64)
    if counts.size:
        root = np.sqrt(counts)
        bonus.extend((c * np.sqrt(np.log(counts))).tolist())
        inv_sqrt.extend((1.0 / root).tolist())


def prune_depth(root: Node, depth: int, width: int) -> None:
    """Beam search step (kassak2023 4.4): keep the ``width`` most visited nodes at ``depth`` below ``root``
    (root = depth 0) and remove the others with their subtrees; the nodes one level up get no new children
    from now on, so the level stays within the beam."""
    parents = [root]
    for _ in range(depth - 1):
        parents = [ch for p in parents for ch in p.children.values()]
    level = [(p, k, ch) for p in parents for k, ch in p.children.items()]
    for p in parents:
        p.closed = True
    if len(level) <= width:
        return
    level.sort(key=lambda t: t[2].visits, reverse=True)  # stable: ties keep the tree's order
    for parent, key, _node in level[width:]:
        del parent.children[key]


def cards_left(obs: Observation) -> int | None:
    """Cards still to be played (hands of trick-taking states), or None when the state has no hands."""
    hands = getattr(obs.state, "hands", None)
    if not isinstance(hands, list):
        return None
    return sum(h.bit_count() for h in hands if isinstance(h, int)) + obs.unknown.bit_count()


def _generic_infoset_key(state: GameState, observer: int) -> Hashable:
    """Default transposition key: everything ``observer`` sees of the state (the fields of its observation's
    masked state, with the public facts the play revealed, such as voids), except the order of past moves."""
    masked = state.observation(observer).state
    names = _KEY_FIELDS.get(masked.__class__)
    if names is None:
        names = _KEY_FIELDS[masked.__class__] = _key_fields(masked.__class__)
    key = [_freeze(getattr(masked, name, None)) for name in names]
    extra = getattr(masked, "__dict__", None)
    if extra:
        key.append(tuple(sorted((k, _freeze(v)) for k, v in extra.items())))
    return tuple(key)


_KEY_FIELDS: dict[type, tuple[str, ...]] = {}


def _key_fields(cls: type) -> tuple[str, ...]:
    """The slots of a state class that the generic key reads: all but the game and the move history."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        names.extend(n for n in klass.__dict__.get("__slots__", ()) if n not in ("game", "history", "__dict__"))
    return tuple(names)


def _freeze(value: Any) -> Hashable:
    """``value`` as a hashable of equal content (lists and dicts become tuples)."""
    if value.__class__ is list:
        return tuple([_freeze(v) for v in value])
    if value.__class__ is dict:
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if value.__class__ is tuple:
        return tuple([_freeze(v) for v in value])
    return value


EVAL_REWARDS = ("pwl", "wl")
"""The rewards ``sim=eval`` can back up: the game's evaluation estimates the outcome (with ``eval_depth``, whose
leaves are valued by ``pimc``'s search, also ``match``)."""

SIM_EPSILON = Option(
    "sim_epsilon", 0.0, "epsilon-greedy simulation over the sim= policy: each simulation move is a uniformly random "
    "legal move with this probability, else the policy's (dipalma2014 EGS: sim=greedy,sim_epsilon=0.3); 0 = off",
    type=float, min=0.0, max=1.0)
"""The ``sim_epsilon`` SPEC parameter (ISMCTS and the cheating agent)."""


def check_knowledge_names(game_name: str, conf: SearchConfig) -> None:
    """Refuse a SPEC that names simulation, pruning, belief, move-handler, opponent, resolver or decision-rule
    knowledge the game does not have (each error lists the valid names)."""
    check_simulation(game_name, conf.sim, conf.sim_epsilon)
    rewards = EVAL_REWARDS + (("match",) if conf.eval_depth else ())
    if conf.sim == "eval" and conf.reward not in rewards:
        raise VariantError(f"sim=eval estimates the outcome, so it needs reward= one of {', '.join(rewards)} "
                           f"(got {conf.reward!r})")
    if (conf.eval_plies or conf.eval_depth) and conf.sim != "eval":
        raise VariantError(f"option '{'eval_plies' if conf.eval_plies else 'eval_depth'}' only applies with sim=eval")
    if conf.eval_plies and conf.eval_depth:
        raise VariantError("options 'eval_plies' and 'eval_depth' exclude each other: random moves or a search "
                           "before the evaluation")
    lookups: tuple[tuple[str, Callable[[str, str], Any]], ...] = (
        (conf.prune, knowledge.pruner), (conf.bias, knowledge.bias), (conf.handler, knowledge.move_handler),
        (conf.opponents, knowledge.policy), (conf.resolve, knowledge.resolver), (conf.rule, knowledge.rule))
    for name, lookup in lookups:
        if name:
            lookup(game_name, name)


def check_simulation(game_name: str, sim: str, sim_epsilon: float) -> None:
    """Refuse an unknown ``sim=`` (the error lists the valid ones) and ``sim_epsilon`` without a policy ``sim=``."""
    if sim == "eval":
        if knowledge.evaluation(game_name) is None:
            raise VariantError(f"sim=eval needs the game's evaluation of unfinished hands; {game_name} has none")
    elif sim not in ("random", "nast"):
        knowledge.simulation(game_name, sim)  # raises VariantError listing the available ones
    if sim_epsilon > 0.0:
        names = sorted(knowledge.of(game_name).policies)
        if sim not in names:
            raise VariantError(f"option 'sim_epsilon' only applies with sim= one of the game's policies; "
                               f"{game_name} has: {', '.join(names) or 'none'}")


def pick_move(result: SearchResult, state: GameState, moves: list[int], rng: random.Random,
              conf: SearchConfig) -> int:
    """The move a search decides: the most visited root key's move (with a move handler, the concrete move of
    the best branch: the resolver's, else the one the search played first)."""
    if not result.visits:
        return _uniform_choice(moves, rng)
    if not conf.handler:
        key = result.best_key(list(moves))
        return key if key in moves else moves[0]
    fn = knowledge.move_handler(conf.game_name, conf.handler)
    order: list[Hashable] = []
    for m in moves:
        k = fn(state, m)
        if k not in order:
            order.append(k)
    key = result.best_key(order)
    group = [m for m in moves if fn(state, m) == key]
    if conf.resolve and len(group) > 1:
        return knowledge.resolver(conf.game_name, conf.resolve)(state, group, rng)
    move = result.moves_by_key.get(key)
    return move if move in group else group[0]


class ISMCTSAgent(Agent):
    """SO-ISMCTS with availability counts; see the module docstring."""

    name = "ismcts"
    description = ("single-observer information set MCTS (fair: samples deals consistent with what its "
                   "seat has seen)")
    params = search_options(1000) + (
        Option("sim", "default", "simulation policy: random, nast, eval (no playout: the game's evaluation of "
               "the new node, the estimate pimc uses at its horizon), or a game heuristic registered in "
               "the game's search knowledge (e.g. greedy for Scopone); default = the game's default: random "
               "playouts, in Pharaoh play-smallest", type=str),
        SIM_EPSILON,
        Option("eval_plies", 0, "with sim=eval: random moves played from the new node before it is evaluated",
               type=int, min=0, max=200),
        Option("eval_depth", 0, "with sim=eval: the new node is worth pimc's search of the iteration's deal, "
               "this many plies deep with the evaluation at its horizon (ISMCTS with PIMC leaves); 0 = the "
               "evaluation of the node itself", type=int, min=0, max=200),
        Option("eval_nodes", 400, "with sim=eval and eval_depth: alpha-beta nodes a leaf's search may spend "
               "(iterative deepening keeps the last pass that fits, as pimc's 'nodes')", type=int, min=1,
               max=100_000_000),
        Option("nast_n", 2, "NAST n-gram length", type=int, min=1, max=4),
        Option("nast_policy", "roulette", "NAST move policy", choices=NAST_POLICIES),
        Option("tau", 1.0, "Gibbs temperature for NAST", type=float, min=0.001, max=1000.0),
        Option("epsilon", 0.2, "epsilon for NAST epsilon-greedy", type=float, min=0.0, max=1.0),
        Option("nast_c", 0.7, "UCB1 constant for NAST ucb1", type=float, min=0.0, max=100.0),
        Option("endgame", 0, "solve the rest of the hand by perfect-information alpha-beta (paranoid: every "
               "seat outside the team plays against it), averaged over every consistent deal, when at most this "
               "many deals are possible; 0 = off", type=int, min=0, max=100_000),
        Option("transpositions", False, "ISMCTS-T: share nodes between equal (abstracted) information sets",
               type=bool),
        Option("tt_stats", "edge", "ISMCTS-T statistics: 'edge' = each parent keeps its own visits, availability "
               "and reward for a move into a shared node (manzke2025 4.3); 'node' = every parent reads and updates "
               "the shared node's", choices=("edge", "node")),
        Option("dets", 0, "use a fixed set of this many determinizations (0 = a new one every iteration)",
               type=int, min=0, max=100_000),
        Option("bias", "", "biased determinization: name of a belief function registered for the game "
               "('' = uniform)", type=str),
        Option("handler", "", "move handler registered for the game grouping moves into tree branches (Scopone "
               "'card': one branch per played card; '' = every move its own branch, dipalma2014 AMH)", type=str),
        Option("resolve", "", "move resolver registered for the game choosing the concrete move of a handler "
               "branch (e.g. Scopone 'greedy': handler=card,resolve=greedy is dipalma2014 OCH); '' = random",
               type=str),
        Option("opponents", "", "in the tree, other seats play only this registered policy's move (dipalma2014 "
               "GOH with 'greedy'); '' = every legal move", type=str),
        Option("prune", "", "heuristic move pruning in the tree: name of a pruner registered for the game "
               "(kassak2023 4.4, e.g. Pharaoh 'smallest'; Scopone 'omh' = dipalma2014 OMH); '' = every legal move",
               type=str),
        Option("rule", "", "a decision rule registered for the game takes the decisions it covers, the search "
               "the others (huang2017 ISMCTS-DLS: Moss Side Whist 'dls', the discards by the DLS heuristic); "
               "'' = the search decides every move", type=str),
        Option("beam_width", 0, "beam search (kassak2023 4.4): after k x beam_limit iterations keep only this "
               "many most visited nodes at depth k of the tree (k = 1, 2, ...); 0 = off", type=int, min=0,
               max=1_000_000),
        Option("beam_limit", 100, "beam search: iterations between two pruning steps", type=int, min=1,
               max=10_000_000),
        Option("until_depth", 0, "stop a search as soon as it has descended this many moves below the root, or "
               "one of its paths has reached the end of the hand, with 'iterations' as a cap (manzke2025 figure "
               "6.2: iterations needed to reach a depth); 0 = off", type=int, min=0, max=1000),
        Option("workers", 1, "root parallelization: independent searches in this many processes, merged "
               "by visit counts", type=int, min=1, max=64),
        Option("reuse", False, "keep the subtree of the moves played since the last decision", type=bool),
    )

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game, **params)
        self.conf = SearchConfig(game, self.config)
        conf = self.conf
        check_knowledge_names(game.name, conf)
        self._check_dependent_options(params)
        if conf.reuse and (conf.handler or conf.transpositions):
            raise VariantError("reuse cannot be combined with handler or transpositions")
        if conf.reuse and conf.workers > 1:
            raise VariantError("reuse cannot be combined with workers > 1 (each worker builds its own tree)")
        if conf.clock == "cpu" and conf.workers > 1:
            raise VariantError("clock=cpu counts one thread's time: it cannot be combined with workers > 1")
        if conf.beam_width and conf.transpositions:
            raise VariantError("beam search (beam_width) cannot be combined with transpositions")
        self._kept: tuple[int, list[Any], Node] | None = None
        self.last_search: SearchResult | None = None
        """The statistics of the search behind the last decision (None when no search decided it: a single
        legal move, a decision rule, the endgame solver); read by the lab's probes."""

    _NAST: tuple[str, Callable[[SearchConfig], bool]] = ("sim=nast", lambda c: c.sim == "nast")
    _NEEDS: dict[str, tuple[str, Callable[[SearchConfig], bool]]] = {
        **dict.fromkeys(("nast_n", "nast_policy", "nast_c", "tau", "epsilon"), _NAST),
        "resolve": ("a move handler (handler=...)", lambda c: bool(c.handler)),
        "beam_limit": ("beam search (beam_width > 0)", lambda c: c.beam_width > 0),
        "tt_stats": ("transpositions=true", lambda c: c.transpositions),
        "eval_nodes": ("sim=eval and eval_depth > 0", lambda c: c.sim == "eval" and c.eval_depth > 0),
    }

    def _check_dependent_options(self, given: dict[str, Any]) -> None:
        """Options that only act together with another one are an error on their own (not silently unused)."""
        for name in given:
            need = self._NEEDS.get(name)
            if need is not None and not need[1](self.conf):
                raise VariantError(f"option {name!r} only applies with {need[0]}")

    def reset(self) -> None:
        self._kept = None

    def choose(self, obs: Observation, rng: random.Random, budget: Budget | None = None) -> int:
        self.last_search = None
        moves = obs.legal_moves()
        if not moves:
            raise VariantError("no legal move: the hand is over or it is not this seat's turn")
        if len(moves) == 1:
            return moves[0]
        conf = self.conf
        if conf.rule:
            ruled = knowledge.rule(self.game.name, conf.rule)(obs.state, rng)
            if ruled is not None:
                if ruled not in moves:
                    raise VariantError(f"decision rule {conf.rule!r} chose an illegal move {ruled}")
                return ruled
        if conf.endgame and self.endgame_worth_trying(obs):
            move, budget = self._solve_endgame(obs, rng, budget)
            if move is not None:
                return move
        if conf.workers > 1:
            result = self.root_parallel(obs, rng, budget)
        else:
            root = self._reusable_root(obs)
            result, root = run_ismcts(obs, rng, conf, budget, root)
            if conf.reuse:
                self._kept = (obs.seat, list(getattr(obs.state, "history", [])), root)
        self.last_search = result
        return self._pick(result, obs, moves, rng)

    def root_parallel(self, obs: Observation, rng: random.Random, budget: Budget | None) -> SearchResult:
        """The ``workers=N`` search: N independent shares merged by root visits. Here they run one after another
        in this process (:func:`run_shares_in_turn`); the agent the SPEC factory seats runs them in helper
        processes instead (:class:`engine.runtime.parallel.ParallelISMCTSAgent`), with the same result for an
        iteration budget."""
        return run_shares_in_turn(obs, rng, self.conf, budget)

    def endgame_worth_trying(self, obs: Observation) -> bool:
        """Whether the hand is short enough for the solver (a pure function of the observation, so a
        restored game decides exactly as the original did)."""
        left = cards_left(obs)
        return left is None or left <= ENDGAME_MAX_CARDS

    def _solve_endgame(self, obs: Observation, rng: random.Random,
                       budget: Budget | None) -> tuple[int | None, Budget | None]:
        """The solver's move, or None and the budget left for the search. With a time budget the solver may
        use up to :data:`ENDGAME_TIME_SHARE` of it; the search gets the rest."""
        seconds = budget.seconds if budget is not None and budget.seconds is not None else self.conf.seconds
        cancel = budget.cancel if budget is not None else None
        now = CLOCKS[self.conf.clock]
        start = now()
        deadline = start + ENDGAME_TIME_SHARE * seconds if seconds > 0 else None
        move = endgame.solve_information_set(obs, rng, self.conf.endgame, reward=self.conf.reward, deadline=deadline,
                                             cancel=cancel, clock=now)
        if move is not None or seconds <= 0:
            return move, budget
        left = max(1e-3, seconds - (now() - start))
        return None, dataclasses.replace(budget, seconds=left) if budget is not None else Budget(seconds=left)

    def _pick(self, result: SearchResult, obs: Observation, moves: list[int], rng: random.Random) -> int:
        return pick_move(result, obs.state, moves, rng, self.conf)

    def _reusable_root(self, obs: Observation) -> Node | None:
        """The kept subtree for the moves played since the last decision, if they are all known."""
        if not self.conf.reuse or self._kept is None:
            return None
        seat, old_history, root = self._kept
        self._kept = None
        history = getattr(obs.state, "history", None)
        if seat != obs.seat or history is None or len(history) < len(old_history):
            return None
        if list(history[:len(old_history)]) != old_history:
            return None
        node = root
        for _s, move in history[len(old_history):]:
            if not isinstance(move, int) or move < 0:
                return None
            child = node.children.get(move)
            if child is None:
                return None
            node = child
        node.parent = None
        # Beam search closed levels counted from the old root; the new search draws its own beam.
        stack = [node]
        while stack:
            kept = stack.pop()
            kept.closed = False
            stack.extend(kept.children.values())
        return node
