-- Second move (R8.9): another move this turn, with a different checker (R4,
-- capture compulsory among the checkers allowed).
function play(ctx)
  local moved = ctx:moved()
  -- Ruling: with no move this turn (R3.1 skipped it), any checker may go.
  local filter = moved and { exclude = { moved.now } } or {}
  if ctx:count_moves(filter) == 0 then
    ctx:log("Second move: no other checker can move")
    return
  end
  local move = ctx:ask_move_where("Second move: which move?", filter)
  ctx:play_move(move, filter)
end
