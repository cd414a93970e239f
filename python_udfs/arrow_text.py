"""An Arrow string array's text as the UTF-8 bytes Arrow holds, without a Python object per
value: what the export writes and what the lexicon automaton scans."""

from __future__ import annotations

import numpy as np
import pyarrow as pa


def utf8_values(array: pa.Array) -> tuple[np.ndarray, memoryview]:
    """The array's values back to back as one UTF-8 buffer (not copied), and where each value
    starts in it, followed by where the last one ends (len(array) + 1 int64 offsets). A null
    slot spans whatever bytes Arrow left there: fill nulls first where that matters."""
    bounds = np.frombuffer(
        array.buffers()[1], dtype=np.int64 if pa.types.is_large_string(array.type) else np.int32
    )[array.offset : array.offset + len(array) + 1]
    first = int(bounds[0])
    offsets = bounds.astype(np.int64) - first
    return offsets, memoryview(array.buffers()[2]).cast("B")[first : first + int(offsets[-1])]
