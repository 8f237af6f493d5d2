-- Quicksand (a nightmare card): an empty square no checker may move onto for
-- the user's next three turns.
function play(ctx)
  local empty = { empty = true }
  if ctx:count_squares(empty) == 0 then
    ctx:log("Quicksand: no empty square; nothing happens")
    return
  end
  local sq = ctx:ask_square_where("Quicksand: which empty square does no checker enter?", empty)
  ctx:add_effect{ lasts = 3, affects = "both", moves = { closed = { sq } } }
end
