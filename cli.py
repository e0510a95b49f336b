"""The ``manhattan`` command: a thin typer + rich front over ``positions`` and ``analyzer``.

Each command parses its options, calls one library function and prints.  Bad input of
any kind (``ManhattanError``, or an ``OSError`` for a file) is caught here, at the
boundary, and ends as one red line on stderr with exit code 1.  Ctrl-C or SIGTERM asks the
running work to stop: the command prints what it has, says in one line that it was
interrupted and exits with 130 (a second Ctrl-C stops at once).  Heavy modules (numba,
the search, the analyzer, networkx, even rich's tables) are imported inside the commands
that need them, so ``moves``, ``apply`` and ``show`` start fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, Any

import typer

from positions.errors import ManhattanError

app = typer.Typer(
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    help="Analysis and coaching for the board game Manhattan.",
)

INTERRUPTED_EXIT_CODE = 130
MAX_WORKERS = 64
MAX_SECONDS = 86_400.0
MAX_ITERATIONS = 1_000_000_000
MAX_SEED = 2**63 - 1


def _output_path(text: str) -> Path:
    """An output file or folder name as given (an empty one is a usage error: it would
    otherwise mean the current folder)."""
    if not text.strip():
        raise typer.BadParameter("expected a file or folder name, not an empty one")
    return Path(text)


# A position string may begin with '-' after an edit; such a word is the argument, not an
# unknown option.
_POSITION_COMMAND = {"ignore_unknown_options": True}

PositionArg = Annotated[
    str,
    typer.Argument(
        help="A position string (quoted), or a file: [bold].mgn[/] (its final position), "
        "[bold].mpz[/] (the puzzle's Setup) or a text file whose first line is a position.",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
ForceOption = Annotated[bool, typer.Option("--force", help="Overwrite existing output files.")]
PlayersOption = Annotated[
    int, typer.Option("--players", "-n", min=2, max=4, help="Number of players (2-4).")
]
BotsOption = Annotated[
    str | None,
    typer.Option(
        "--bots",
        help="Bot specs per seat, comma-separated (one spec: every seat; default greedy): "
        "[bold]random[/], [bold]greedy[/], [bold]heuristic[/], [bold]mcts:<budget>[/], "
        "[bold]cmd:<command>[/].",
        show_default=False,
    ),
]
BotOption = Annotated[
    list[str] | None,
    typer.Option(
        "--bot",
        help="One bot spec for the next seat (repeat per seat); use it for "
        "[bold]cmd:[/] command lines holding commas.",
        show_default=False,
    ),
]
RuleOptionsOption = Annotated[
    list[str] | None,
    typer.Option("--option", help="A rule option [bold]name=value[/] (repeatable)."),
]
BotTimeoutOption = Annotated[
    float,
    typer.Option(
        "--bot-timeout", min=0.1, max=3600, help="Seconds a [bold]cmd:[/] bot gets per move."
    ),
]
CoachTimeOption = Annotated[
    float,
    typer.Option(
        "--coach-time", min=0.01, max=3600, help="Seconds of search per feedback or hint."
    ),
]
CoachIterationsOption = Annotated[
    int | None,
    typer.Option(
        "--coach-iterations",
        min=1,
        max=MAX_ITERATIONS,
        help="Iterations per feedback or hint instead of a time (repeatable).",
        show_default=False,
    ),
]
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        max=MAX_WORKERS,
        help="Parallel searchers (default: one per core, up to 2).",
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", min=0, max=MAX_SEED, help="Random seed of the search.")
]
BackendOption = Annotated[
    str,
    typer.Option(
        "--backend", help="Where searchers run: [bold]loky[/] (this machine) or [bold]dask[/]."
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler", help="Dask scheduler address (with --backend dask).", show_default=False
    ),
]


# ----- errors, consoles, progress --------------------------------------------------------


def _error_message(error: BaseException) -> str:
    if isinstance(error, OSError) and error.filename is not None:
        reason = error.strerror or "cannot use the file"
        return f"{reason[0].lower()}{reason[1:]}: {error.filename}"
    return str(error) or type(error).__name__


def _print_error(message: str) -> None:
    from positions.errors import shorten

    typer.secho(f"error: {shorten(message)}", fg=typer.colors.RED, err=True)


@contextmanager
def _user_errors() -> Iterator[None]:
    """Turn the domain's errors (and file errors) into one red line and exit code 1."""
    try:
        yield
    except (ManhattanError, OSError, UnicodeError) as error:
        _print_error(_error_message(error))
        raise typer.Exit(1) from None


def _err_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _out_console() -> Any:
    from rich.console import Console

    return Console(highlight=False)


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data))


def _stopped() -> bool:
    """Whether Ctrl-C (or SIGTERM) asked the command to stop."""
    from search import stopping

    return stopping.requested()


def _exit_if_interrupted(what: str) -> None:
    """After the results so far are printed: one line saying the work was interrupted and
    ``what`` was kept, and exit code 130."""
    if _stopped():
        typer.secho(f"interrupted: {what}", fg=typer.colors.YELLOW, err=True)
        raise typer.Exit(INTERRUPTED_EXIT_CODE)


@contextmanager
def _progress(kind: str, total: float | None, quiet: bool) -> Iterator[Any]:
    """A live display on stderr while work runs, only on a terminal (elsewhere it would
    leave stray lines); yields the progress callback or ``None``.  No display thread is
    started: the work's own callbacks refresh it, so helper processes can be forked."""
    console = None if quiet else _err_console()
    if console is None or not console.is_terminal:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    if kind == "search":
        columns = [SpinnerColumn(), TextColumn("searching"), BarColumn(), TimeElapsedColumn()]
    else:
        columns = [TextColumn(kind), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=console, transient=True, auto_refresh=False) as bar:
        task = bar.add_task(kind, total=total)

        def update(done: float, _total: float | None = None) -> None:
            bar.update(task, completed=done if total else None, refresh=True)

        yield update


def _ready_engine(quiet: bool) -> None:
    """Load the compiled search kernel before the search's clock starts, saying so with a
    spinner when it has to be compiled (the first run after an install)."""
    from analyzer.engine import COMPILE_MESSAGE, engine_needs_compiling, prepare_engine

    if not engine_needs_compiling():
        prepare_engine()
        return
    console = _err_console()
    if console.is_terminal:
        with console.status(COMPILE_MESSAGE, spinner="dots"):
            prepare_engine()
    else:
        typer.echo(COMPILE_MESSAGE, err=True)
        prepare_engine()


def _write_kept(path: Path, text: str, kept: str) -> str | None:
    """Write an output at the end of the work; on failure the work is kept (it was
    printed) and the returned line says what was not written."""
    from analyzer.outputs import OutputError, write_output

    try:
        write_output(path, text)
    except OutputError as error:
        return f"{error}; {kept}"
    return None


# ----- root ----------------------------------------------------------------------------


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"manhattan {version('manhattan')}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Analysis and coaching for the board game Manhattan."""


# ----- show / moves / apply --------------------------------------------------------------


SvgOption = Annotated[
    Path | None,
    typer.Option("--svg", help="Write the board picture here (.svg).", parser=_output_path),
]
SeatOption = Annotated[
    str | None,
    typer.Option(
        "--seat",
        help="Draw the board as this player sees it: [bold]2[/], [bold]P2[/] or a seat "
        "letter [bold]S W N E[/] (default: the player to move).",
        show_default=False,
    ),
]
HtmlOption = Annotated[
    Path | None,
    typer.Option(
        "--html",
        help="Write a self-contained report here (.html), opens from disk.",
        dir_okay=False,
    ),
]


@app.command(context_settings=_POSITION_COMMAND)
def show(
    position: PositionArg,
    svg: SvgOption = None,
    seat: SeatOption = None,
    highlight: Annotated[
        list[str] | None,
        typer.Option("--highlight", help="Mark a move of the player to move (solid; repeatable)."),
    ] = None,
    engine_move: Annotated[
        list[str] | None,
        typer.Option("--engine", help="Mark a move as the engine's choice (dashed; repeatable)."),
    ] = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Draw a position: the six cities, scores, supplies, selections, hands and deck.

    The cities are drawn as seen from seat S; each building shows its height and its
    owner's color.  Also shown: the visible hands, the played pile and the deck count.
    [bold]--svg[/] writes a picture drawn from any seat ([bold]--seat[/]), with moves
    highlighted and each hand card showing where it builds.

    [bold]--json[/] gives every field, the board per city and site, and
    [bold]round_score[/]: what each color would score if the round were scored now.
    """
    from positions.loading import describe_position, load_position

    with _user_errors():
        state = load_position(position)
        data = describe_position(state)
        if svg is not None:
            from analyzer.outputs import check_output_file, write_output
            from render.svg import Highlight, board_svg

            check_output_file(svg, force, (".svg",), "--svg")
            marks = [Highlight(m, "played", caption="highlighted move") for m in highlight or []]
            marks += [Highlight(m, "engine") for m in engine_move or []]
            write_output(svg, board_svg(state, seat, marks))
        elif seat is not None or highlight or engine_move:
            raise ManhattanError("--seat, --highlight and --engine go with --svg FILE")
    if as_json:
        _print_json(data)
        return
    if svg is not None:
        typer.echo(f"board written to {svg}")
        return
    from render.terminal import position_view

    _out_console().print(position_view(data))


@app.command(context_settings=_POSITION_COMMAND)
def moves(position: PositionArg, as_json: JsonOption = False) -> None:
    """List every legal move of the player to move, in canonical notation, sorted.

    In the placement phase the mover's hand must be shown (no [bold]?[/]).
    """
    from positions.loading import load_position

    with _user_errors():
        state = load_position(position)
        legal = [str(move) for move in state.legal_moves()]
    if as_json:
        _print_json(legal)
    elif legal:
        typer.echo("\n".join(legal))


@app.command(context_settings=_POSITION_COMMAND)
def apply(
    position: PositionArg,
    move_tokens: Annotated[
        list[str],
        typer.Argument(
            metavar="move",
            help="Moves in canonical notation ([bold]=112234[/], [bold]7@3:4[/], "
            "[bold]7@-:1[/]; 2p: [bold]=1123/1234[/], [bold]7@3:4c[/]).  A token "
            "[bold]+2[/] after a placement names the card drawn; an unnamed draw becomes "
            "[bold]?[/].  Marks such as [bold]!?[/] are ignored.",
            show_default=False,
        ),
    ],
    as_json: JsonOption = False,
) -> None:
    """Play moves from a position and print the resulting position string."""
    from positions.loading import apply_move_tokens, load_position
    from positions.notation import write_position

    with _user_errors():
        state = apply_move_tokens(load_position(position), move_tokens)
        result = write_position(state)
    if as_json:
        _print_json({"position": result})
    else:
        typer.echo(result)


# ----- play ----------------------------------------------------------------------------


@app.command()
def play(
    players: PlayersOption = 4,
    bots: BotsOption = None,
    bot: BotOption = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", min=0, max=MAX_SEED, help="Random seed (default: a fresh one, reported)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Write the game record here (default: stdout; with a person at the table, "
            "a new file in the current folder).",
            parser=_output_path,
        ),
    ] = None,
    option: RuleOptionsOption = None,
    bot_timeout: BotTimeoutOption = 30.0,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            min=1,
            max=4,
            help="Seat a person (you) at player K; [bold]--bots[/] then names the other "
            "seats in seat order ([bold]human[/] there seats more people).",
            show_default=False,
        ),
    ] = None,
    level: Annotated[
        int | None,
        typer.Option(
            "--level",
            min=1,
            max=5,
            help="Every bot seat plays at strength level N (1-5; 5 is the full engine): "
            "short for [bold]--bots level:N[/].",
            show_default=False,
        ),
    ] = None,
    coach: Annotated[
        bool,
        typer.Option(
            "--coach",
            help="After each of your moves: what it cost in win % and points against the "
            "engine's choice, the better move and why.",
        ),
    ] = False,
    teach: Annotated[
        bool,
        typer.Option(
            "--teach",
            help="Coach, and offer to take back a move that costs at least "
            "[bold]--teach-threshold[/] win-% points.",
        ),
    ] = False,
    teach_threshold: Annotated[
        float,
        typer.Option("--teach-threshold", min=0.1, max=100, help="Win-% points (confident loss)."),
    ] = 10.0,
    coach_time: CoachTimeOption = 1.0,
    coach_iterations: CoachIterationsOption = None,
    workers: WorkersOption = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Play a whole game, between bots or with people at the table, and write its record.

    The record holds the Deal, every draw and the Result, so it replays to the same
    result.  Between bots: without [bold]--out[/] the record is printed; Ctrl-C ends the
    game after the current move and keeps the record so far.

    With [bold]--seat K[/] you play seat K: the board is drawn from your seat with your
    hand, and you answer with a move or its number, [bold]hint[/], [bold]undo[/],
    [bold]save FILE[/] or [bold]quit[/] ([bold]help[/] lists them).  The record is saved
    to [bold]--out[/] or a new file in the current folder, also on quit, end of input
    and Ctrl-C; review it with [bold]manhattan review[/].
    """
    with _user_errors():
        from analyzer.outputs import check_output_file
        from analyzer.play import fresh_seed, game_summary, play_bots
        from analyzer.players import HUMAN_SPEC, table_specs
        from positions.options import parse_options
        from positions.record import write_record

        specs = table_specs(players, bots, bot, seat, level)
        rules = parse_options(option or [], players)
        if HUMAN_SPEC in (spec.lower() for spec in specs):
            if as_json:
                raise ManhattanError("--json is for games between bots, not with a person")
            from analyzer.coach import CoachSettings
            from analyzer.engine import default_workers

            settings = CoachSettings(
                seconds=coach_time,
                iterations=coach_iterations,
                workers=workers or default_workers(),
                teach_threshold=teach_threshold,
            )
            seed = fresh_seed() if seed is None else seed
        elif coach or teach:
            raise ManhattanError(
                "--coach and --teach need a person at the table: --seat K or human in --bots"
            )
        else:
            settings = None
    if settings is not None:
        _play_at_table(specs, seed, rules, out, force, (coach, teach, settings), bot_timeout)
        return
    with _user_errors():
        if out is not None:
            check_output_file(out, force, (".mgn",), "--out")
        seed = fresh_seed() if seed is None else seed
        if any(spec.strip().startswith(("mcts", "level")) for spec in specs):
            _ready_engine(as_json)
        outcome = play_bots(specs, players, seed, rules, bot_timeout)
        text = write_record(outcome.record)
    failure = _write_kept(out, text, "the game was played") if out is not None else None
    summary = game_summary(outcome, specs, seed, None if failure else out)
    if as_json:
        if out is None or failure:
            summary["record"] = text
        _print_json(summary)
    elif out is None:
        typer.echo(text, nl=not text.endswith("\n"))
    else:
        from render.terminal import game_summary_view

        _out_console().print(game_summary_view(summary))
    if failure:
        _print_error(failure)
        raise typer.Exit(1)
    _exit_if_interrupted(f"the game was stopped after {len(outcome.record.moves)} decisions")


# ----- play: people at the table ---------------------------------------------------------


def _play_at_table(
    specs: list[str],
    seed: int,
    rules: Any,
    out: Path | None,
    force: bool,
    coach: tuple[bool, bool, Any],
    bot_timeout: float,
) -> None:
    """A game with people at the table: ``coach`` is (coach, teach, CoachSettings)."""
    with _user_errors():
        from analyzer.outputs import check_output_file
        from analyzer.table import Table, new_record_path

        coaching, teach, settings = coach
        path = out if out is not None else new_record_path()
        check_output_file(path, force, (".mgn",), "--out")
        if coaching or teach or any(s.startswith(("mcts", "level")) for s in specs):
            _ready_engine(False)
        table = Table(
            specs,
            seed=seed,
            options=rules,
            coach=coaching,
            teach=teach,
            coach_settings=settings,
            bot_timeout=bot_timeout,
        )
        if table.coaching:
            table.coach.warm_up()
    from render.table_front import TableFront

    code = TableFront(table, path, force, lambda: _ready_engine(False), _print_error).run()
    if code:
        raise typer.Exit(code)


# ----- analyze / review / solve / match ---------------------------------------------------


def _engine_settings(
    seconds: float | None,
    iterations: int | None,
    workers: int | None,
    seed: int,
    backend: str,
    scheduler: str | None,
) -> Any:
    from analyzer.engine import EngineSettings, default_limit, default_workers

    settings = EngineSettings(
        limit=default_limit(iterations, seconds),
        workers=workers or default_workers(),
        seed=seed,
        backend=backend,
        scheduler=scheduler,
    )
    settings.parallelism()
    return settings


@app.command(context_settings=_POSITION_COMMAND)
def analyze(
    position: Annotated[
        str | None,
        typer.Argument(
            help="A position string, a position/puzzle file or a game record (.mgn). "
            "Default: a bundled example.",
            show_default=False,
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            "--time",
            min=0.01,
            max=MAX_SECONDS,
            help="Seconds to search, whatever the worker count (default 5 unless --iterations).",
        ),
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option(
            "--iterations", min=1, max=MAX_ITERATIONS, help="Iterations to search (repeatable)."
        ),
    ] = None,
    workers: WorkersOption = None,
    top: Annotated[
        int, typer.Option("--top", min=1, max=1000, help="Candidates shown in the table.")
    ] = 8,
    seed: SeedOption = 0,
    move: Annotated[
        int | None,
        typer.Option(
            "--move", min=1, help="With a record: the position before decision N (from 1)."
        ),
    ] = None,
    tree: Annotated[
        Path | None,
        typer.Option(
            "--tree",
            help="Export the top of the search tree (.graphml or .dot).",
            parser=_output_path,
        ),
    ] = None,
    html: HtmlOption = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Recommend a move for the player to move, from that player's information only.

    Shows the top candidates (visits, win % with a 95% interval, expected final score,
    margin over the best opponent, a reason; [bold]≈[/] marks moves the search cannot
    tell from the best), the expected line, and in the selection phase the whole
    selection for the round.  With [bold]--iterations[/] and [bold]--seed[/] the result
    is repeatable; a time budget depends on the machine.  Ctrl-C stops the search and
    shows what it found.
    """
    with _user_errors():
        from analyzer.engine import analyze as run_analysis
        from analyzer.engine import mover_view
        from analyzer.outputs import check_output_file
        from positions.loading import load_analysis_target

        view = mover_view(load_analysis_target(position, move))
        if tree is not None:
            from analyzer.tree_export import TREE_SUFFIXES  # networkx is slow to import

            check_output_file(tree, force, TREE_SUFFIXES, "--tree")
        if html is not None:
            check_output_file(html, force, (".html", ".htm"), "--html")
        settings = _engine_settings(seconds, iterations, workers, seed, backend, scheduler)
        _ready_engine(as_json)
        with _progress("search", settings.limit.seconds, as_json) as progress:
            analysis = run_analysis(view, settings, progress)
    failure = None
    if tree is not None:
        from analyzer.tree_export import tree_graph, tree_text

        text = tree_text(tree_graph(view, analysis.search.summary), tree)
        failure = _write_kept(tree, text, "the analysis is shown")
    if html is not None:
        from render.analysis_report import analysis_report_html

        page = analysis_report_html(view, analysis.to_json(), top=top)
        failure = _write_kept(html, page, "the analysis is shown") or failure
    if as_json:
        _print_json(analysis.to_json())
    else:
        from analyzer.report import analysis_view

        _out_console().print(analysis_view(analysis, top))
    if failure:
        _print_error(failure)
        raise typer.Exit(1)
    _exit_if_interrupted(f"the search was stopped after {analysis.iterations:,} iterations")


def _parse_marks(text: str) -> tuple[float, float, float]:
    parts = text.split(",")
    try:
        values = tuple(float(part) for part in parts)
    except ValueError:
        values = ()
    if len(values) != 3 or not all(0 < v <= 100 for v in values):
        from positions.errors import quote

        raise ManhattanError(
            f"--marks {quote(text)}: expected three win-% drops in (0, 100] like 5,10,15"
        )
    return values  # type: ignore[return-value]


@app.command()
def review(
    game: Annotated[Path, typer.Argument(help="A game record (.mgn).", show_default=False)],
    time_per_move: Annotated[
        float,
        typer.Option(
            "--time-per-move",
            min=0.01,
            max=MAX_SECONDS,
            help="Seconds of search per decision (wall time, whatever the worker count).",
        ),
    ] = 1.0,
    iterations_per_move: Annotated[
        int | None,
        typer.Option(
            "--iterations-per-move",
            min=1,
            max=MAX_ITERATIONS,
            help="Iterations per decision (repeatable).",
        ),
    ] = None,
    workers: WorkersOption = None,
    seed: SeedOption = 0,
    marks: Annotated[
        str,
        typer.Option("--marks", help="Win-% drops for ?!, ? and ?? (comma-separated)."),
    ] = "5,10,15",
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Write the annotated record here (.mgn).", parser=_output_path
        ),
    ] = None,
    html: HtmlOption = None,
    seat: SeatOption = None,
    exercises: Annotated[
        Path | None,
        typer.Option(
            "--exercises",
            help="Write each marked decision as an exercise (.mex) into this folder, for "
            "[bold]manhattan train[/].",
            parser=_output_path,
        ),
    ] = None,
    player: Annotated[
        int | None,
        typer.Option(
            "--player",
            min=1,
            max=4,
            help="With --exercises: only this player's decisions (default: every player's).",
            show_default=False,
        ),
    ] = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Review every decision of a game from each player's own information.

    For each decision: the engine's choice, the loss in win % and in expected points
    (each with its standard error, from the two moves played out on the same dealt
    worlds), and a mark ([bold]?![/], [bold]?[/], [bold]??[/]) only where the loss clears
    the threshold with confidence; per player: accuracy, mark counts, the marked moves and
    a win-% timeline.  [bold]--html[/] writes a report to open in a browser: the
    win-% graph, the moves, the board at any move.  [bold]--exercises DIR[/] writes each
    marked decision (of [bold]--player K[/]) as an exercise from that player's view, to
    practise with [bold]manhattan train DIR[/].  Ctrl-C stops early and keeps the
    decisions done.
    """
    with _user_errors():
        from analyzer.engine import default_workers
        from analyzer.outputs import check_output_file
        from analyzer.review import ReviewSettings, annotate, review_game
        from positions.record import load_record, write_record

        record = load_record(game)
        _check_exercises_output(record, game, exercises, player, force)
        if out is not None:
            check_output_file(out, force, (".mgn",), "--out")
        if html is not None:
            check_output_file(html, force, (".html", ".htm"), "--html")
        if seat is not None:
            from render.seats import viewer_player

            viewer_player(record.states()[0], seat)
        settings = ReviewSettings(
            seconds_per_move=time_per_move,
            iterations_per_move=iterations_per_move,
            workers=workers or default_workers(),
            seed=seed,
            backend=backend,
            scheduler=scheduler,
            thresholds=_parse_marks(marks),
        )
        settings.parallelism()
        _ready_engine(as_json)
        with _progress("reviewing", len(record.moves), as_json) as progress:
            result = review_game(record, settings, progress)
        made = _make_exercises(record, result, settings, game, exercises, player, as_json)
    failure = None
    if out is not None:
        text = write_record(annotate(record, result))
        failure = _write_kept(out, text, "the review is shown")
    if html is not None:
        from render.html_report import review_report_html

        page = review_report_html(record, result.to_json(), seat=seat)
        failure = _write_kept(html, page, "the review is shown") or failure
    written, exercises_failure = _write_made_exercises(made, exercises, game, force)
    failure = failure or exercises_failure
    if as_json:
        data = result.to_json()
        if written is not None:
            data["exercises"] = written
        _print_json(data)
    else:
        from analyzer.report import review_view

        _out_console().print(review_view(result))
        if written is not None:
            _print_exercises_written(written)
    if failure:
        _print_error(failure)
        raise typer.Exit(1)
    _exit_if_interrupted(
        f"{len(result.decisions)} of {result.total_decisions} decisions were reviewed"
    )


# ----- exercises (review --exercises) and train ------------------------------------------


def _check_exercises_output(
    record: Any, game: Path, folder: Path | None, player: int | None, force: bool
) -> None:
    """Before the review: ``--player`` needs ``--exercises``, names a player of the game,
    and the folder can take every exercise the review could make."""
    if folder is None:
        if player is not None:
            raise ManhattanError("--player chooses whose exercises to write: add --exercises DIR")
        return
    from analyzer.exercises import check_exercise_folder

    check_exercise_folder(record, folder, player, game.stem, force)


def _make_exercises(
    record: Any,
    review: Any,
    settings: Any,
    game: Path,
    folder: Path | None,
    player: int | None,
    quiet: bool,
) -> Any:
    """The exercises of the review's marked decisions (``None`` without ``--exercises``)."""
    if folder is None or _stopped():
        return None
    from analyzer.exercises import ExerciseSettings, exercises_from_review, marked_decisions

    marked = marked_decisions(review, player)
    with _progress("exercises", len(marked) or None, quiet) as progress:
        return exercises_from_review(
            record,
            review,
            player,
            ExerciseSettings.after_review(settings),
            source=game.name,
            progress=progress,
        )


def _write_made_exercises(
    made: Any, folder: Path | None, game: Path, force: bool
) -> tuple[dict | None, str | None]:
    """Write the exercises: what was written (JSON-ready) and the failure line, if any."""
    if made is None or folder is None:
        return None, None
    from analyzer.exercises import write_exercise_set
    from analyzer.outputs import OutputError

    try:
        return write_exercise_set(folder, made, game.stem, force), None
    except OutputError as error:
        unwritten = {"folder": str(folder), "files": [], **made.to_json()}
        return unwritten, f"{error}; the review is shown"


def _print_exercises_written(written: dict) -> None:
    count = len(written["files"])
    line = f"{count} exercise{'s' if count != 1 else ''} written to {written['folder']}"
    if count:
        line += f": practise with  manhattan train {written['folder']}"
    typer.echo(line)
    for skipped in written["skipped"]:
        typer.echo(
            f"  no exercise for decision {skipped['index'] + 1} (P{skipped['player']} "
            f"{skipped['played']}): {skipped['reason']}"
        )


@app.command()
def train(
    target: Annotated[
        Path,
        typer.Argument(
            help="A folder of exercises (.mex), as [bold]review --exercises[/] writes, or "
            "one exercise file.",
            show_default=False,
        ),
    ],
) -> None:
    """Practise your mistakes: each exercise shows a position from your seat where a
    review marked your move; find a better one.

    Answer with a move in notation ([bold]7@3:4[/], 2 players [bold]7@3:4c[/], a
    selection [bold]=112234[/]), or [bold]hint[/], [bold]skip[/] or [bold]quit[/].  Each
    answer is judged right or wrong, and the better move is shown with why.  The end
    (also at end of input or Ctrl-C) shows how many were right.
    """
    with _user_errors():
        from analyzer.training import TrainingSession, load_exercises

        session = TrainingSession(load_exercises(target))
    from render.train_front import train_in_terminal

    if train_in_terminal(session, _out_console()):
        typer.secho("interrupted", fg=typer.colors.YELLOW, err=True)
        raise typer.Exit(INTERRUPTED_EXIT_CODE)


@app.command()
def solve(
    target: Annotated[
        str,
        typer.Argument(
            help="A puzzle (.mpz), a folder of puzzles, or a position.", show_default=False
        ),
    ],
    goal: Annotated[
        str | None,
        typer.Option("--goal", help="win or round-points (default: the puzzle's Goal, else win)."),
    ] = None,
    node_budget: Annotated[
        int | None,
        typer.Option(
            "--node-budget",
            min=1000,
            max=MAX_ITERATIONS,
            help="Nodes before giving up the proof.",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Solve a puzzle: prove every move that meets its goal.

    The exact search covers every reply of every opponent and every possible draw.
    When the position is too big to prove it falls back to MCTS and says so.
    A folder: every puzzle's verdict, solved/total and the time.
    """
    with _user_errors():
        from analyzer import solve as solver

        budget = node_budget or solver.DEFAULT_NODE_BUDGET
        if solver.is_puzzle_folder(target):
            checks = solver.solve_directory(target, budget)
            if as_json:
                summary = solver.directory_summary(checks)
                _print_json({"puzzles": [c.to_json() for c in checks], **summary})
            else:
                from analyzer.report import directory_view

                _out_console().print(directory_view(checks))
            _exit_if_interrupted(f"{len(checks)} puzzles were solved")
            return
        state, goal = solver.load_target(target, goal)
        _ready_engine(as_json)
        result = solver.solve(state, goal, node_budget=budget)
    if as_json:
        _print_json(result.to_json())
    else:
        from analyzer.report import solve_view

        _out_console().print(solve_view(result))
    _exit_if_interrupted("the best move found so far is shown")


@app.command()
def match(
    players: PlayersOption = 4,
    bots: BotsOption = None,
    bot: BotOption = None,
    games: Annotated[int, typer.Option("--games", min=1, max=100_000, help="Games to play.")] = 10,
    workers: Annotated[
        int,
        typer.Option("--workers", min=1, max=MAX_WORKERS, help="Games played side by side."),
    ] = 1,
    seed: SeedOption = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Folder for the records (game_0001.mgn, …).",
            parser=_output_path,
        ),
    ] = None,
    option: RuleOptionsOption = None,
    bot_timeout: BotTimeoutOption = 30.0,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Play many games between bots, seats rotated, and report win rates.

    Win rates come with 95% confidence intervals (Wilson); a shared first counts 1/k.
    Every record is saved with [bold]--out[/].  Ctrl-C stops the match and reports the
    games finished.
    """
    with _user_errors():
        from analyzer.match import check_match_output, run_match
        from analyzer.players import bot_specs
        from positions.options import parse_options

        specs = bot_specs(players, bots, bot)
        rules = parse_options(option or [], players)
        if out is not None:
            check_match_output(out, games, force)
        if any(spec.strip().startswith("mcts") for spec in specs):
            _ready_engine(as_json)
        with _progress("games", games, as_json) as progress:
            result = run_match(
                specs,
                players,
                games,
                workers,
                seed,
                out,
                rules,
                progress,
                force=force,
                bot_timeout=bot_timeout,
            )
    data = result.to_json()
    if as_json:
        _print_json(data)
    else:
        from analyzer.report import match_view

        console = _out_console()
        console.print(match_view(data))
        for game, seat, spec, reason in result.forfeit_reasons():
            console.print(f"game {game}: P{seat} ({spec}) forfeited: {reason}")
    if result.write_failure:
        _print_error(result.write_failure)
        raise typer.Exit(1)
    _exit_if_interrupted(f"{result.finished} of {games} games were finished")


@app.command()
def engine() -> None:
    """Serve analyses to programs: JSON queries on stdin, one per line; JSON answers on
    stdout, one per line (see docs/ENGINE.md).

    A query: [bold]{"id": "q1", "position": "<position>", "iterations": 5000}[/] (or
    "seconds", "workers", "seed", "top", "report_every"; or "record" with "turns").
    Partial answers come every report_every seconds, then one final answer per query.
    [bold]{"id": "t", "action": "terminate", "terminate_id": "q1"}[/] ends a query now;
    [bold]{"id": "v", "action": "version"}[/] gives the version.  Closing stdin finishes
    the queued queries and exits.
    """
    from analyzer.engine_mode import serve

    code = serve(sys.stdin.fileno(), sys.stdout, version("manhattan"))
    raise typer.Exit(code)


@app.command()
def serve(
    port: Annotated[
        int,
        typer.Option("--port", "-p", min=0, max=65535, help="Port on 127.0.0.1 (0: any free one)."),
    ] = 8765,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the page in the web browser.")
    ] = False,
    exercises: Annotated[
        Path | None,
        typer.Option(
            "--exercises",
            help="A folder of exercises (.mex, as [bold]review --exercises[/] writes) for "
            "the train page.",
            file_okay=False,
            show_default=False,
        ),
    ] = None,
    coach_time: CoachTimeOption = 1.0,
    coach_iterations: CoachIterationsOption = None,
    workers: WorkersOption = None,
    bot_timeout: BotTimeoutOption = 30.0,
) -> None:
    """Play and learn in the browser: a page on 127.0.0.1 (this machine only).

    Start a game from a new deal, a bundled position, a pasted position or an uploaded
    record; play against bots by clicking card, city and block; ask for hints, read the
    coach's feedback, take moves back, step through the game, save the record and
    analyze any position as the search goes.  With [bold]--exercises DIR[/] the train
    page asks that folder's exercises.  Ctrl-C stops the server.
    """
    from web import missing_extra

    with _user_errors():
        missing = missing_extra()
        if missing is not None:
            raise ManhattanError(missing)
        from analyzer.coach import CoachSettings
        from analyzer.engine import default_workers
        from web.app import ServeSettings
        from web.server import address, bind, prepare
        from web.server import serve as run_server

        if exercises is not None:
            from analyzer.training import load_exercises

            load_exercises(exercises)  # a folder without exercises fails now, not later
        searchers = workers or default_workers()
        settings = ServeSettings(
            coach=CoachSettings(seconds=coach_time, iterations=coach_iterations, workers=searchers),
            workers=searchers,
            bot_timeout=bot_timeout,
            exercises=exercises,
            version=version("manhattan"),
        )
        _ready_engine(False)
        prepare(settings)
        try:
            sock = bind(port)
        except OSError as error:
            raise ManhattanError(
                f"--port {port}: {error.strerror or error}; choose another port or --port 0"
            ) from None
    url = address(sock)
    typer.echo(f"manhattan serve: {url}  (Ctrl-C stops)")
    if exercises is not None:
        typer.echo(f"train: {url}train")
    if open_browser:
        import webbrowser

        webbrowser.open(url + ("train" if exercises is not None else ""))
    run_server(settings, sock)
    _exit_if_interrupted("the server stopped")


# ----- entry point -----------------------------------------------------------------------


def _usage_error_line(error: Exception) -> str | None:
    """One line for click's usage errors (a bad option, value or command), else ``None``.
    Typer vendors its own click, so they are recognized by shape: exit code 2 and a
    ``format_message``."""
    if getattr(error, "exit_code", None) != 2 or not hasattr(error, "format_message"):
        return None
    context = getattr(error, "ctx", None)
    where = context.command_path if context is not None else "manhattan"
    return f"{where}: {error.format_message()}"


def main() -> None:
    """Entry point of the ``manhattan`` command.

    A bad option, value or command ends as one line naming the command and exit code 1,
    like every other bad input; ``manhattan`` alone prints the help.  Ctrl-C and SIGTERM
    ask the work to stop (see the module docstring).  An unexpected exception (a bug, not
    bad input) also ends as one line on stderr and exit code 1; set ``MANHATTAN_DEBUG=1``
    to see the traceback.
    """
    import atexit
    import gc
    import os

    from search import stopping

    atexit.register(gc.freeze)  # runs last: no full collection of the kernel's objects at exit
    with stopping.on_signals():
        try:
            code = app(standalone_mode=False)
        except Exception as error:  # noqa: BLE001 - the last line of defence against tracebacks
            if type(error).__name__ == "NoArgsIsHelpError":
                typer.echo(error.ctx.get_help())  # type: ignore[attr-defined]
                sys.exit(0)
            if type(error).__name__ == "Abort":  # end of input or Ctrl-C before the work
                typer.secho("interrupted", fg=typer.colors.YELLOW, err=True)
                sys.exit(INTERRUPTED_EXIT_CODE)
            line = _usage_error_line(error)
            if line is None:
                if os.environ.get("MANHATTAN_DEBUG"):
                    raise
                line = f"internal error (please report it): {type(error).__name__}: {error}"
            _print_error(line)
            sys.exit(1)
    if stopping.requested() and code in (0, None):
        typer.secho("interrupted", fg=typer.colors.YELLOW, err=True)
        sys.exit(INTERRUPTED_EXIT_CODE)
    sys.exit(code if isinstance(code, int) else 0)
