-- Emperor (R8.3): you may sacrifice one of your pawns to make one of your kings
-- an emperor. The kernel's make_emperor removes the pawn, returns its tokens to
-- the supply (R4.9) and stacks its piece on the king.
function play(ctx)
  local me = ctx:player()
  local pawns = { owner = me, kind = "pawn" }
  local kings = { owner = me, kind = "king" }
  if ctx:count(pawns) == 0 or ctx:count(kings) == 0 then
    ctx:log("Emperor: {user} needs a pawn and a king on the board; nothing happens")
    return
  end
  -- "You may" (R8.0): answering none declines.
  local pawn = ctx:ask_checker_where("Emperor: which pawn do you sacrifice?", pawns, { optional = true })
  if pawn == nil then return end
  local king = ctx:ask_checker_where("Emperor: which king becomes an emperor?", kings)
  ctx:make_emperor(pawn, king)
end
