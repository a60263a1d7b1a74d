//! The output sink of the CDL printer: a writer plus the two pieces of state ncdump keeps in
//! globals, the group indentation (`indent.c`) and the line position used by `lput`
//! (ncdump-conventions.md §6, `vardata.c` `lput`).

use std::io::Write;

use crate::error::{Error, Result};

/// Continuation indent of wrapped lines (`LINEPIND`).
const LINEPIND: &[u8] = b"    ";

/// A writer with ncdump's indentation and line-wrapping state.
pub(crate) struct Out<W: Write> {
    w: W,
    /// Current group indentation in spaces (0 at the root, +2 per group level).
    pub(crate) indent: usize,
    /// Line position as `lput` counts it (not always the true column, exactly as in netcdf-c).
    pub(crate) linep: isize,
    /// `-l` value minus 2.
    max_line_len: isize,
}

impl<W: Write> Out<W> {
    /// A sink wrapping `w`; `line_len` is the `-l` value (default 80).
    pub(crate) fn new(w: W, line_len: usize) -> Self {
        Out {
            w,
            indent: 0,
            linep: 0,
            max_line_len: isize::try_from(line_len).unwrap_or(isize::MAX / 2) - 2,
        }
    }

    /// Writes bytes as they are (C `printf`/`fputs`), without touching the line position.
    #[inline]
    pub(crate) fn put(&mut self, b: &[u8]) -> Result<()> {
        self.w.write_all(b).map_err(Error::io)
    }

    /// Writes the current group indentation (`indent_out`).
    pub(crate) fn indent_out(&mut self) -> Result<()> {
        const SPACES: &[u8] = b"                                ";
        let mut n = self.indent;
        while n > 0 {
            let k = n.min(SPACES.len());
            self.put(&SPACES[..k])?;
            n -= k;
        }
        Ok(())
    }

    /// `lput`: writes a string that must not be split, first breaking the line when it would pass
    /// the maximum length (and is longer than 2 bytes).
    pub(crate) fn lput(&mut self, s: &[u8]) -> Result<()> {
        let nn = isize::try_from(s.len()).unwrap_or(isize::MAX / 2);
        if nn + self.linep > self.max_line_len && nn > 2 {
            self.put(b"\n")?;
            self.indent_out()?;
            self.put(LINEPIND)?;
            self.linep = LINEPIND.len() as isize + self.indent as isize;
        }
        self.put(s)?;
        if s.last() == Some(&b'\n') {
            self.linep = self.indent as isize;
        } else {
            self.linep += nn;
        }
        Ok(())
    }

    /// Sets the line position (`set_indent`).
    pub(crate) fn set_linep(&mut self, n: usize) {
        self.linep = isize::try_from(n).unwrap_or(isize::MAX / 2);
    }

    /// The maximum line length as `lput` compares it (`-l` minus 2).
    pub(crate) fn max_line_len(&self) -> isize {
        self.max_line_len
    }

    /// Flushes the underlying writer.
    pub(crate) fn flush(&mut self) -> Result<()> {
        self.w.flush().map_err(Error::io)
    }
}
