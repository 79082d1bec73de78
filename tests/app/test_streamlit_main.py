"""dkw_app/streamlit_main.py: the server's launcher imports the pages' libraries while it starts."""
from __future__ import annotations

import sys


def test_warm_imports_load_the_modules_in_a_daemon_thread(monkeypatch):
    from dkw_app import streamlit_main

    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    thread = streamlit_main.warm_imports(("colorsys",))
    thread.join(timeout=30)
    assert thread.daemon and not thread.is_alive()
    assert "colorsys" in sys.modules


def test_a_module_that_fails_to_import_is_left_to_the_page():
    from dkw_app import streamlit_main

    thread = streamlit_main.warm_imports(("dkw_no_such_module", "colorsys"))
    thread.join(timeout=30)
    assert not thread.is_alive()  # no exception escapes the thread; the page's own import reports it


def test_the_server_warms_the_pages_one_door(monkeypatch):
    from dkw_app import streamlit_main

    started: list[tuple[str, ...]] = []
    monkeypatch.setattr(streamlit_main, "warm_imports",
                        lambda modules=streamlit_main.WARM_MODULES, preload=False: started.append(modules))
    import streamlit.web.cli
    from streamlit.runtime.pages_manager import PagesManager

    monkeypatch.setattr(streamlit.web.cli, "main", lambda **kw: None)
    monkeypatch.setattr(PagesManager, "uses_pages_directory", PagesManager.uses_pages_directory)  # restored after
    streamlit_main.main()
    assert started == [streamlit_main.WARM_MODULES] and "dkw_app.resources" in streamlit_main.WARM_MODULES


def _record(logger: str, msg: str, *, thread: str = "MainThread", exc: BaseException | None = None):
    import logging

    record = logging.LogRecord(logger, logging.WARNING, __file__, 1, msg, (), (type(exc), exc, None) if exc else None)
    record.threadName = thread
    return record


def test_the_console_drops_only_the_two_messages_that_are_not_faults():
    """A background job's "missing ScriptRunContext!" and the traceback of a tab that closed its
    websocket are kept off the console; the same warning from any other thread and any other
    ASGI exception are printed as before."""
    import logging

    from dkw_app import streamlit_main

    streamlit_main.quiet_logs()
    streamlit_main.quiet_logs()  # idempotent: one filter each
    context = logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context")
    asgi = logging.getLogger("uvicorn.error")
    assert len([f for f in context.filters if isinstance(f, streamlit_main._NotAFault)]) == 1
    warning = "Thread '%s': missing ScriptRunContext! This warning can be ignored when running in bare mode."
    assert not context.filter(_record(context.name, warning, thread="dkw-job-prepare-r8"))
    assert context.filter(_record(context.name, warning, thread="ThreadPoolExecutor-0_0"))

    class WebSocketDisconnect(Exception):
        pass

    closed = RuntimeError("wrapped")
    closed.__cause__ = WebSocketDisconnect(1001)
    assert not asgi.filter(_record(asgi.name, "Exception in ASGI application\n", exc=closed))
    assert not asgi.filter(_record(asgi.name, "Exception in ASGI application\n",
                                   exc=RuntimeError("Unexpected ASGI message 'websocket.send', after sending 'websocket.close'")))
    assert asgi.filter(_record(asgi.name, "Exception in ASGI application\n", exc=ValueError("a real fault")))
    assert asgi.filter(_record(asgi.name, "Uvicorn running"))


def test_an_explorer_server_loads_the_word_vectors_while_it_starts(monkeypatch):
    """The first open of Documents or Categories spent most of its time reading and cropping the
    vectors and loading the prepared model: an explorer server loads them in the background while
    it starts; a judges-only study server does not need them."""
    from dkw_app import resources, streamlit_main

    loaded = []
    monkeypatch.setattr(resources, "preload", lambda: loaded.append("preloaded"))
    streamlit_main.warm_imports(("colorsys",), preload=True).join(timeout=30)
    assert loaded == ["preloaded"]
    streamlit_main.warm_imports(("colorsys",)).join(timeout=30)
    assert loaded == ["preloaded"]
    monkeypatch.setenv("DKW_MODE", "study")
    assert not streamlit_main._explorer()
    monkeypatch.setenv("DKW_MODE", "explorer")
    assert streamlit_main._explorer()


def test_the_preload_reads_only_what_is_on_disk(monkeypatch, tmp_path):
    """Nothing is built ahead: the shipped reference results (files of the repository) are always
    read; without the default vectors' converted copy, with other vectors (DKW_VECTORS) or with no
    prepared corpus, no model is loaded; with both on disk the prepared model of the corpus the
    pages open on is loaded into the server's cache."""
    from dkw_app import corpora_models, resources
    from dkw_core.types import DEFAULT_K

    loads: list[tuple] = []
    monkeypatch.setattr(resources, "model", lambda *a, **k: loads.append(a))
    monkeypatch.setattr(resources, "reference", lambda: loads.append(("reference",)))
    monkeypatch.setattr(resources, "dataset_infos", lambda: [{"name": "r8", "available": True},
                                                             {"name": "webkb", "available": True}])
    monkeypatch.setattr(corpora_models, "sample_per_category", lambda: None)
    prepared = {"webkb"}
    monkeypatch.setattr(resources, "is_prepared", lambda name, *a, **k: name in prepared)
    monkeypatch.setattr(corpora_models, "vectors_path", lambda: None)
    monkeypatch.setattr(corpora_models, "describe_default", lambda: {"cached": False})
    assert resources.preload() is None and loads == [("reference",)]  # the vectors would be converted first
    loads.clear()
    monkeypatch.setattr(corpora_models, "describe_default", lambda: {"cached": True})
    monkeypatch.setattr(corpora_models, "vectors_path", lambda: str(tmp_path / "other.kv"))
    assert resources.preload() is None and loads == [("reference",)]  # other vectors: the user's file, maybe large
    loads.clear()
    monkeypatch.setattr(corpora_models, "vectors_path", lambda: None)
    prepared.clear()
    assert resources.preload() is None and loads == [("reference",)]  # nothing prepared: nothing to tag ahead
    loads.clear()
    prepared.add("webkb")
    assert resources.preload() == "webkb" and loads == [("reference",), ("webkb", None, DEFAULT_K)]


def test_the_warm_up_builds_every_kind_of_chart_once_and_freezes_what_it_loaded(monkeypatch):
    """Plotly's validators are built at start, not in a page's first open; what is loaded by
    then is frozen out of the collection Streamlit runs after every script run."""
    import gc

    from dkw_app import charts, streamlit_main

    fig = charts.warm_up()
    assert {t.type for t in fig.data} == {"bar", "scatter", "heatmap"}
    assert fig.layout.annotations and fig.layout.shapes
    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    streamlit_main.warm_imports(("colorsys",)).join(timeout=30)
    assert frozen == [True]
    streamlit_main.warm_imports(("dkw_no_such_module",)).join(timeout=30)
    assert frozen == [True]  # a failed import stops the warm-up before anything is frozen
